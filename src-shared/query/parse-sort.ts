/**
 * Parses the `sort` argument. TRUST BOUNDARY: untrusted query-string text; every key resolves
 * through the definition and must be an indexed scalar.
 */
import { allProperties, type ObjectDef } from '../schema/types.js';
import type { SortKey } from './ast.js';
import { childPath, queryFault, unsupportedFault } from './faults.js';
import { resolveField } from './fields.js';
import { isJsonObject, JsonSyntaxError, parseJson, type JsonValue } from './json.js';
import { MAX_QUERY_TEXT_LENGTH, MAX_SORT_KEYS } from './limits.js';

/** `sort` is a bare property name (ascending) or a JSON object `{path: 1 | -1, ...}` in key order. */
export function parseSort(text: string | undefined, def: ObjectDef): SortKey[] {
  if (text === undefined || text.trim() === '') return [];
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return [sortKey(def, trimmed, 1, 'sort')];
  if (text.length > MAX_QUERY_TEXT_LENGTH) throw queryFault('sort is too long.', 'sort');
  let document: JsonValue;
  try {
    document = parseJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw queryFault(e.message, 'sort');
    throw e;
  }
  return parseSortDocument(document, def);
}

/** Parses an already-decoded sort object. */
export function parseSortDocument(document: unknown, def: ObjectDef): SortKey[] {
  if (!isJsonObject(document)) throw queryFault('sort must be a property name or a JSON object.', 'sort');
  const entries = Object.entries(document);
  if (entries.length > MAX_SORT_KEYS) throw queryFault(`sort may name at most ${MAX_SORT_KEYS} properties.`, 'sort');
  return entries.map(([path, direction]) => {
    const keyPath = childPath('sort', path);
    if (direction !== 1 && direction !== -1)
      throw queryFault('Sort directions are 1 (ascending) or -1 (descending).', keyPath);
    return sortKey(def, path, direction, keyPath);
  });
}

function sortKey(def: ObjectDef, path: string, direction: 1 | -1, faultPath: string): SortKey {
  const resolved = resolveField(allProperties(def), path, faultPath);
  if (resolved.field.access.kind !== 'value') {
    throw unsupportedFault(`Can't sort by "${path}": it is an array, a document or lies inside an array.`, faultPath);
  }
  if (!resolved.indexed) throw queryFault(`Property "${path}" is not indexed, so it can't be sorted.`, faultPath);
  return { field: resolved.field, direction };
}
