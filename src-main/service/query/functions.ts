/** SQLite functions the compiled queries call. Register them on every connection that runs queries. */
import type { Database } from 'better-sqlite3';
import { createRegexMatcher } from '../../../src-shared/query/regex.js';

/** Compiled patterns kept per connection; a query uses one or two, so this is generous. */
export const REGEX_CACHE_SIZE = 256;

/**
 * Registers `re_match(pattern, flags, value)` → 1/0: RE2 (re2js) unanchored search, linear in the
 * value whatever the pattern, so no `$regex` can stall the database thread. Deterministic, so
 * SQLite may evaluate it once per distinct argument set. Non-text values never match.
 */
export function registerQueryFunctions(db: Database): void {
  const matches = createRegexMatcher(REGEX_CACHE_SIZE);
  db.function(
    're_match',
    { deterministic: true, varargs: false },
    (pattern: unknown, flags: unknown, value: unknown) => {
      if (typeof pattern !== 'string' || typeof flags !== 'string') return 0;
      return matches(pattern, flags, value) ? 1 : 0;
    },
  );
}
