/**
 * The query panel's text forms: where and sort as the URL keeps them (compact JSON), as the bar
 * shows them (one line) and as the JSON view shows them (indented), and the builder's reading of them.
 */
import { countConditions, emptyGroup, fromWhere, type GroupNode } from './builder-state';
import type { QueryablePath } from './operators';
import type { SavedQuery } from './saved-queries';
import type { SortKey } from './SortAndPaths';

/** A query as the URL keeps it: `where` and `sort` as compact JSON text. */
export interface QueryDraft {
  where?: string | undefined;
  sort?: string | undefined;
  paths: string[];
  limit: number;
}

/**
 * The where bar's example, from the collection's own properties (not another collection's): a
 * "starts with" on its first text property, else a comparison on its first number or date.
 */
export function wherePlaceholder(fields: readonly QueryablePath[]): string {
  const usable = fields.filter((f) => !f.container && f.path !== '_id');
  const text = usable.find((f) => f.type === 'String');
  if (text) return JSON.stringify({ [text.path]: { $regex: '/^a/i' } });
  const number = usable.find((f) => f.type === 'Number' || f.type === 'Integer');
  if (number) return JSON.stringify({ [number.path]: { $gt: 0 } });
  const date = usable.find((f) => f.type === 'Date');
  if (date) return JSON.stringify({ [date.path]: { $gte: '2024-01-01' } });
  return '{}';
}

/** "(3)" after "Builder" when the tree holds conditions. */
export function countLabel(root: GroupNode): string {
  const n = countConditions(root);
  return n === 0 ? '' : ` (${n})`;
}

/** The where/sort text on one line (the bar), or as given when it does not parse. */
export function oneLine(text: string | undefined): string {
  if (text === undefined) return '';
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/** Sort text from the URL: a bare path means ascending on it. */
export function initialSortText(sort: string | undefined): string {
  if (sort === undefined) return '';
  if (!sort.trim().startsWith('{')) return JSON.stringify({ [sort.trim()]: 1 });
  return oneLine(sort);
}

/** The sort builder's keys read from the sort text; none when it does not parse. */
export function sortKeysOf(text: string): SortKey[] {
  const value = safeParse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).map(([path, dir]) => ({ path, dir: dir === -1 ? -1 : 1 }));
}

/** The JSON view's indented text. */
export function pretty(text: string | undefined): string {
  if (text === undefined) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text; // Shown as typed, with the syntax error marked.
  }
}

/** A checked value as the URL keeps it; an empty object is no condition at all. */
export function compact(value: unknown): string | undefined {
  const text = JSON.stringify(value);
  return text === '{}' ? undefined : text;
}

/** Why the builder cannot show the where text it opens with, or null when it can. */
export function initialNote(where: string | undefined): string | null {
  if (where === undefined) return null;
  try {
    const result = fromWhere(JSON.parse(where));
    return result.ok ? null : `The builder can't show this query: ${result.reason}`;
  } catch {
    return 'The builder shows the query again once the JSON parses.';
  }
}

/** The builder's tree for the where text it opens with (empty when it cannot show it). */
export function initialTree(where: string | undefined): GroupNode {
  if (where === undefined) return emptyGroup();
  try {
    const result = fromWhere(JSON.parse(where));
    return result.ok ? result.root : emptyGroup();
  } catch {
    return emptyGroup();
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A draft as a query library entry stores it: absent where/sort left out. */
export function clean(draft: QueryDraft): Omit<SavedQuery, 'at' | 'name' | 'org' | 'collection'> {
  const out: Omit<SavedQuery, 'at' | 'name' | 'org' | 'collection'> = { paths: draft.paths, limit: draft.limit };
  if (draft.where !== undefined) out.where = draft.where;
  if (draft.sort !== undefined) out.sort = draft.sort;
  return out;
}
