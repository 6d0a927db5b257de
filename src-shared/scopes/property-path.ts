/**
 * Property-path arithmetic for property-level scopes (docs/scopes.md: properties outside the
 * scope are stripped from reads and writes to them are refused).
 */

/** The paths a set of chains allows on one object: every property, or only these (possibly none). */
export type AllowedProperties = 'all' | readonly string[];

/** True when `path` is `ancestor` itself or lies inside it: `name.first` is within `name`. */
export function isPathWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}.`);
}

/** Sorted, without duplicates and without paths a shorter one already covers. */
export function collapsePaths(paths: readonly string[]): string[] {
  const sorted = [...new Set(paths)].sort();
  return sorted.filter((path) => !sorted.some((other) => other !== path && isPathWithin(path, other)));
}

/**
 * How much of the property at `path` the allowed set covers:
 * `full` — all of it (strip nothing, writes allowed);
 * `partial` — only some nested properties (a read keeps the document but strips inside it; a
 *   write to the whole document is refused);
 * `none` — nothing (strip it; refuse writes).
 */
export function propertyAccess(allowed: AllowedProperties, path: string): 'full' | 'partial' | 'none' {
  if (allowed === 'all') return 'full';
  if (allowed.some((granted) => isPathWithin(path, granted))) return 'full';
  if (allowed.some((granted) => isPathWithin(granted, path))) return 'partial';
  return 'none';
}
