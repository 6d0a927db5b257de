/**
 * "starts with" in the builder (issue 44 item 10): not an operator of the query language but a
 * form of `$regex` — an anchored pattern whose body is the typed text with every special
 * character escaped, so `a.b` matches "a.b…" and not "axb…". A `$regex` of exactly that form
 * (read from JSON or a saved query) shows as "starts with" again; any other stays a regex.
 */
import { regexLiteral } from '../../../api/account-admin';

export const STARTS_WITH = 'startsWith';
export const STARTS_WITH_ANY_CASE = 'startsWithAnyCase';
export type PrefixOperator = typeof STARTS_WITH | typeof STARTS_WITH_ANY_CASE;

export function isPrefixOperator(op: string): op is PrefixOperator {
  return op === STARTS_WITH || op === STARTS_WITH_ANY_CASE;
}

/** The `$regex` operand for "starts with `text`": `/^text/`, or `/^text/i` in any case. */
export function prefixRegex(text: string, op: PrefixOperator): string {
  return `/^${regexLiteral(text)}/${op === STARTS_WITH_ANY_CASE ? 'i' : ''}`;
}

// `/^` + characters that are not special, or special ones escaped as regexLiteral escapes them + `/` and `i` or nothing.
const PREFIX = /^\/\^((?:\\[\\^$.*+?()[\]{}|/]|[^\\^$.*+?()[\]{}|/])*)\/(i?)$/;

/** The text and form of a `$regex` operand that is exactly a "starts with", else null. */
export function prefixOf(regex: unknown): { op: PrefixOperator; text: string } | null {
  if (typeof regex !== 'string') return null;
  const m = PREFIX.exec(regex);
  if (!m) return null;
  return { op: m[2] === 'i' ? STARTS_WITH_ANY_CASE : STARTS_WITH, text: (m[1] ?? '').replace(/\\(.)/gs, '$1') };
}
