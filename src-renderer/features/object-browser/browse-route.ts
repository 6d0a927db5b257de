/**
 * The object browser's state in the URL hash, so a view can be reopened and shared:
 *
 *   #/browse?c=accounts&where={"name.last":{"$regex":"/^s/i"}}&sort={"name.last":1}
 *            &paths=email,name&limit=100&skip=0&after=<_id>&view=json&cols=_id,email&record=<_id>
 *
 * Aggregation mode adds `&mode=agg&pipeline=[…]&off=1,3&show=chart&chart=bar` (aggregation/agg-route.ts).
 *
 * Trust boundary: the hash is user input. Values are only shape-checked here (collection name,
 * numbers in range, ids 24 hex); `where` and `sort` stay text and go through the shared parser
 * before anything is sent, exactly like text typed into the JSON view.
 */
import { MAX_LIMIT, MAX_SKIP } from '../../../src-shared/query/limits';
import { parseAggregationParams, writeAggregationParams, type AggregationState } from './aggregation/agg-route';

export const DEFAULT_BROWSE_LIMIT = 100;
const COLLECTION = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const OBJECT_ID = /^[0-9a-f]{24}$/i;
const PATH = /^[A-Za-z_][A-Za-z0-9_]{0,63}(\.[A-Za-z_][A-Za-z0-9_]{0,63})*$/;
const MAX_TEXT = 20_000;

/** Keyset position: the page after (or before) the record with this `_id`. */
export interface Cursor {
  dir: 'after' | 'before';
  id: string;
}

export interface BrowseState extends AggregationState {
  collection?: string;
  /** `where` JSON text as run (compact), or undefined for no condition. */
  where?: string;
  /** `sort` JSON text as run, or undefined for the default order (`_id` descending). */
  sort?: string;
  paths: string[];
  limit: number;
  skip: number;
  cursor?: Cursor;
  view: 'table' | 'json';
  /** Visible grid columns; undefined means the default set. */
  cols?: string[];
  /** The `_id` of the record open in the drawer. */
  record?: string;
}

declare module '../../routing/route' {
  interface ScreenStates {
    browse: BrowseState;
  }
}

export const DEFAULT_BROWSE_STATE: BrowseState = { paths: [], limit: DEFAULT_BROWSE_LIMIT, skip: 0, view: 'table' };

export function parseBrowseParams(params: URLSearchParams): BrowseState {
  const state: BrowseState = { ...DEFAULT_BROWSE_STATE, paths: [] };
  const collection = params.get('c');
  if (collection !== null && COLLECTION.test(collection)) state.collection = collection;
  const where = text(params.get('where'));
  if (where !== undefined) state.where = where;
  const sort = text(params.get('sort'));
  if (sort !== undefined) state.sort = sort;
  state.paths = pathList(params.get('paths'));
  state.limit = integer(params.get('limit'), 1, MAX_LIMIT) ?? DEFAULT_BROWSE_LIMIT;
  state.skip = integer(params.get('skip'), 0, MAX_SKIP) ?? 0;
  const after = params.get('after');
  const before = params.get('before');
  if (after !== null && OBJECT_ID.test(after)) state.cursor = { dir: 'after', id: after.toLowerCase() };
  else if (before !== null && OBJECT_ID.test(before)) state.cursor = { dir: 'before', id: before.toLowerCase() };
  if (params.get('view') === 'json') state.view = 'json';
  const cols = params.get('cols');
  if (cols !== null) state.cols = pathList(cols);
  const record = params.get('record');
  if (record !== null && OBJECT_ID.test(record)) state.record = record.toLowerCase();
  return { ...state, ...parseAggregationParams(params) };
}

export function writeBrowseParams(state: BrowseState, params: URLSearchParams): void {
  if (state.collection !== undefined) params.set('c', state.collection);
  if (state.where !== undefined) params.set('where', state.where);
  if (state.sort !== undefined) params.set('sort', state.sort);
  if (state.paths.length > 0) params.set('paths', state.paths.join(','));
  params.set('limit', String(state.limit));
  params.set('skip', String(state.skip));
  if (state.cursor) params.set(state.cursor.dir, state.cursor.id);
  if (state.view !== 'table') params.set('view', state.view);
  if (state.cols !== undefined) params.set('cols', state.cols.join(','));
  if (state.record !== undefined) params.set('record', state.record);
  writeAggregationParams(state, params);
}

function text(raw: string | null): string | undefined {
  if (raw === null || raw.trim() === '' || raw.length > MAX_TEXT) return undefined;
  return raw;
}

function integer(raw: string | null, min: number, max: number): number | undefined {
  if (raw === null || !/^\d{1,7}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= min && n <= max ? n : undefined;
}

function pathList(raw: string | null): string[] {
  if (raw === null || raw === '') return [];
  return [...new Set(raw.split(',').filter((path) => PATH.test(path)))].slice(0, 100);
}
