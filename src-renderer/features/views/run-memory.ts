/**
 * The arguments last run per view, kept in this window's memory only (never storage or the URL:
 * a value can be anything a caller typed): leaving the Views screen and coming back, or switching
 * views, does not throw away what was typed. Bounded: the oldest view is forgotten first.
 */
const MAX_VIEWS = 50;
const memory = new Map<string, Record<string, string>>();

const keyOf = (org: string, view: string) => `${org}\u0000${view}`;

export function rememberedArguments(org: string, view: string): Record<string, string> {
  return { ...(memory.get(keyOf(org, view)) ?? {}) };
}

export function rememberArguments(org: string, view: string, values: Record<string, string>): void {
  const key = keyOf(org, view);
  memory.delete(key);
  memory.set(key, { ...values });
  while (memory.size > MAX_VIEWS) memory.delete(memory.keys().next().value!);
}

/**
 * A run form's starting values: per variable, the argument last run for this view in this window,
 * else the view's declared default (docs/views.md#variables).
 */
export function startingArguments(
  org: string,
  view: { name: string; variables?: { name: string; defaultValue?: string }[] },
): Record<string, string> {
  const defaults: Record<string, string> = {};
  for (const v of view.variables ?? []) if (v.defaultValue !== undefined) defaults[v.name] = v.defaultValue;
  return { ...defaults, ...rememberedArguments(org, view.name) };
}
