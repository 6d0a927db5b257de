/**
 * The object browser's account search (issue #18 item 4): a name or email typed in a box becomes
 * the same `where` the Manage-accounts screen sends (`searchWhere`: email, first or last name
 * prefix, case-insensitive; or an exact `_id`), so both screens find the same accounts. The where
 * goes into the URL and the query bar like any other query, so what runs is what is shown.
 */
import { searchWhere } from '../../../api/account-admin';

/** The compact `where` text for a search, or undefined (no condition) for an empty one. */
export function accountSearchWhereText(text: string): string | undefined {
  const where = searchWhere(text);
  return where === undefined ? undefined : JSON.stringify(where);
}

/**
 * The search text a `where` was made from, or '' when the where is not a search (then the box
 * starts empty and the query bar alone describes the query).
 */
export function accountSearchTextOf(whereText: string | undefined): string {
  if (whereText === undefined || whereText.trim() === '') return '';
  let where: unknown;
  try {
    where = JSON.parse(whereText);
  } catch {
    return '';
  }
  const candidate = candidateText(where);
  if (candidate === null) return '';
  return JSON.stringify(searchWhere(candidate)) === JSON.stringify(where) ? candidate : '';
}

function candidateText(where: unknown): string | null {
  if (typeof where !== 'object' || where === null) return null;
  const record = where as Record<string, unknown>;
  if (typeof record._id === 'string') return record._id;
  const first = Array.isArray(record.$or) ? (record.$or[0] as { email?: { $regex?: unknown } } | undefined) : undefined;
  const regex = first?.email?.$regex;
  if (typeof regex !== 'string') return null;
  const body = /^\/\^(.*)\/i$/s.exec(regex)?.[1];
  // Undo regexLiteral's escaping: every escaped character stands for itself.
  return body === undefined ? null : body.replace(/\\(.)/gs, '$1');
}
