export function ConfigurationScreen() {
  return null;
}
