/**
 * The configuration sections an export manifest may name (docs/configuration.md), one list for the
 * service's manifest reader (environment/manifest.ts) and the console's manifest editor.
 */
export const CONFIG_SECTIONS = [
  'objects',
  'roles',
  'apps',
  'views',
  'scripts',
  'settings',
  'configs',
  'policies',
] as const;
export type ConfigSection = (typeof CONFIG_SECTIONS)[number];
