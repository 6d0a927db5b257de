/**
 * A trigger record's `configuration.paths`: the property paths whose change the trigger is about.
 * An update runs the trigger only when it modifies one of them, a path under one
 * (`name.first` for `name`) or one above (`name` for `name.first`); a create or a delete always
 * runs it, since every path is new or gone (docs/scripting.md#triggers). Checked on save so a typo
 * is refused rather than a trigger that silently never runs.
 */
const MAX_PATHS = 50;
const MAX_PATH_LENGTH = 200;
const PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** Why `value` is not a usable `paths` (undefined when it is absent or usable). */
export function triggerPathsProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_PATHS) {
    return `A trigger's paths are a list of 1 to ${MAX_PATHS} property paths.`;
  }
  const bad = value.find((p) => typeof p !== 'string' || p.length > MAX_PATH_LENGTH || !PATH.test(p));
  return bad === undefined
    ? undefined
    : `${JSON.stringify(bad).slice(0, 80)} is not a property path (c_name, name.first).`;
}

/** `{paths}` for a TriggerDef from a stored option; `{}` when absent (or unreadable: refused on save). */
export function triggerPathsOf(value: unknown): { paths?: readonly string[] } {
  return value !== undefined && triggerPathsProblem(value) === undefined ? { paths: value as string[] } : {};
}

/** Whether the modified paths of an update touch one of `paths` (equal, under or above it). */
export function touchesPaths(paths: readonly string[], modified: readonly string[]): boolean {
  return modified.some((m) => paths.some((p) => m === p || m.startsWith(`${p}.`) || p.startsWith(`${m}.`)));
}
