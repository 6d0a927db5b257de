/**
 * Query history (per org and collection) and named saved queries, kept in localStorage and
 * exportable to / importable from a JSON file.
 *
 * Trust boundary: both localStorage and an imported file are untrusted input. `parseQueryLibrary`
 * keeps only well-formed entries; the queries themselves are re-checked by the shared parser when
 * they are opened, like any other where/sort text.
 */

export interface SavedQuery {
  /** Name given by the user; history entries have none. */
  name?: string;
  org: string;
  collection: string;
  where?: string;
  sort?: string;
  paths: string[];
  limit: number;
  /** An aggregation (Browse's pipeline builder): every stage as JSON text, disabled ones too. */
  pipeline?: string;
  /** Indexes of the disabled stages of `pipeline`. */
  off?: number[];
  /** ISO time it was run or saved. */
  at: string;
}

export interface QueryLibrary {
  version: 1;
  history: SavedQuery[];
  saved: SavedQuery[];
}

export const HISTORY_PER_COLLECTION = 20;
const MAX_ENTRIES = 500;
const MAX_TEXT = 20_000;
export const STORAGE_KEY = 'console.queries.v1';

export function emptyLibrary(): QueryLibrary {
  return { version: 1, history: [], saved: [] };
}

/** Same query (ignoring name and time)? */
export function sameQuery(a: SavedQuery, b: SavedQuery): boolean {
  return (
    a.org === b.org &&
    a.collection === b.collection &&
    a.where === b.where &&
    a.sort === b.sort &&
    a.limit === b.limit &&
    a.paths.join(',') === b.paths.join(',') &&
    a.pipeline === b.pipeline &&
    (a.off ?? []).join(',') === (b.off ?? []).join(',')
  );
}

/** Adds a run to the front of the history; a repeat moves up; each collection keeps the latest 20. */
export function recordRun(library: QueryLibrary, entry: SavedQuery): QueryLibrary {
  const rest = library.history.filter((item) => !sameQuery(item, entry));
  const history = [entry, ...rest];
  let kept = 0;
  const trimmed = history.filter((item) => {
    if (item.org !== entry.org || item.collection !== entry.collection) return true;
    kept += 1;
    return kept <= HISTORY_PER_COLLECTION;
  });
  return { ...library, history: trimmed.slice(0, MAX_ENTRIES) };
}

/** Saves under a name; a query of the same org, collection and name is replaced. */
export function saveNamed(library: QueryLibrary, entry: SavedQuery & { name: string }): QueryLibrary {
  const rest = library.saved.filter(
    (item) => !(item.org === entry.org && item.collection === entry.collection && item.name === entry.name),
  );
  return { ...library, saved: [entry, ...rest].slice(0, MAX_ENTRIES) };
}

export function removeNamed(library: QueryLibrary, entry: SavedQuery): QueryLibrary {
  return { ...library, saved: library.saved.filter((item) => item !== entry) };
}

/** Merges an imported library: saved queries by name (imported wins), history de-duplicated. */
export function mergeLibraries(current: QueryLibrary, imported: QueryLibrary): QueryLibrary {
  let merged = current;
  for (const entry of [...imported.saved].reverse()) {
    if (entry.name !== undefined) merged = saveNamed(merged, { ...entry, name: entry.name });
  }
  const history = [...imported.history, ...merged.history].filter(
    (item, index, all) => all.findIndex((other) => sameQuery(other, item)) === index,
  );
  return { ...merged, history: history.slice(0, MAX_ENTRIES) };
}

export function forCollection(entries: SavedQuery[], org: string, collection: string): SavedQuery[] {
  return entries.filter((item) => item.org === org && item.collection === collection);
}

/** Reads a library from JSON text; throws a plain-words Error when it is not one. */
export function parseQueryLibrary(text: string): QueryLibrary {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('The file is not JSON.');
  }
  if (!isObject(value) || value.version !== 1) {
    throw new Error('The file is not a query library exported by this console (version 1).');
  }
  const read = (list: unknown): SavedQuery[] =>
    Array.isArray(list)
      ? list
          .map(readEntry)
          .filter((e): e is SavedQuery => e !== null)
          .slice(0, MAX_ENTRIES)
      : [];
  return { version: 1, history: read(value.history), saved: read(value.saved).filter((e) => e.name !== undefined) };
}

export function serializeQueryLibrary(library: QueryLibrary): string {
  return `${JSON.stringify(library, null, 2)}\n`;
}

function readEntry(value: unknown): SavedQuery | null {
  if (!isObject(value)) return null;
  const { name, org, collection, where, sort, paths, limit, at, pipeline, off } = value;
  if (!optionalText(pipeline) || !optionalIndexes(off)) return null;
  if (typeof org !== 'string' || !/^[a-z0-9-]{1,64}$/.test(org)) return null;
  if (typeof collection !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(collection)) return null;
  if (!optionalText(where) || !optionalText(sort)) return null;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000) return null;
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string' && p.length <= 200)) return null;
  const entry: SavedQuery = {
    org,
    collection,
    paths: paths as string[],
    limit,
    at: typeof at === 'string' ? at.slice(0, 40) : new Date(0).toISOString(),
  };
  if (typeof name === 'string' && name.trim() !== '') entry.name = name.trim().slice(0, 100);
  if (typeof where === 'string') entry.where = where;
  if (typeof sort === 'string') entry.sort = sort;
  if (typeof pipeline === 'string') entry.pipeline = pipeline;
  if (Array.isArray(off) && off.length > 0) entry.off = off as number[];
  return entry;
}

/** Stage indexes: at most 20 whole numbers from 0 to 99. */
function optionalIndexes(value: unknown): boolean {
  if (value === undefined) return true;
  return (
    Array.isArray(value) &&
    value.length <= 20 &&
    value.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < 100)
  );
}

function optionalText(value: unknown): boolean {
  return value === undefined || (typeof value === 'string' && value.length <= MAX_TEXT);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function loadLibrary(storage: Pick<Storage, 'getItem'> | undefined): QueryLibrary {
  try {
    const text = storage?.getItem(STORAGE_KEY);
    return text ? parseQueryLibrary(text) : emptyLibrary();
  } catch {
    return emptyLibrary();
  }
}

export function storeLibrary(storage: Pick<Storage, 'setItem'> | undefined, library: QueryLibrary): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(library));
  } catch {
    // Storage full or unavailable: the library lasts for this page only.
  }
}
