/**
 * Turns the browser's state into the list request for one page (docs/query-semantics.md#paging):
 * keyset paging when the order is by `_id` alone (the default order is `_id` descending), with
 * `where` AND-ed with `_id $gt/$lt` the last/first id; skip paging for any other order.
 */
import type { ListRequest } from '../../api/records';
import type { Cursor } from './browse-route';

export interface BaseQuery {
  where?: Record<string, unknown> | undefined;
  sort?: Record<string, 1 | -1> | undefined;
  paths: readonly string[];
  limit: number;
  skip: number;
}

/** 1 or -1 when the order is by `_id` alone (keyset paging works), else null. */
export function keysetDirection(sort: Record<string, 1 | -1> | undefined): 1 | -1 | null {
  const keys = sort ? Object.keys(sort) : [];
  if (keys.length === 0) return -1;
  if (keys.length === 1 && keys[0] === '_id') return sort?._id ?? null;
  return null;
}

export interface PagePlan {
  request: ListRequest;
  /** The page was fetched in reverse order (keyset "previous") and must be reversed for display. */
  reversed: boolean;
  mode: 'keyset' | 'skip';
}

export function planPage(base: BaseQuery, cursor: Cursor | undefined): PagePlan {
  const direction = keysetDirection(base.sort);
  const paths = base.paths.length > 0 ? base.paths : undefined;
  if (direction === null || !cursor) {
    return {
      request: { where: base.where, sort: base.sort, skip: base.skip, limit: base.limit, paths },
      reversed: false,
      mode: direction === null ? 'skip' : 'keyset',
    };
  }
  const forward = cursor.dir === 'after';
  // Moving forward continues the order; moving back walks the opposite order from the first id.
  const ascending = forward ? direction === 1 : direction === -1;
  const where = andWhere(base.where, { _id: { [ascending ? '$gt' : '$lt']: cursor.id } });
  const sort: Record<string, 1 | -1> = { _id: ascending ? 1 : -1 };
  return { request: { where, sort, limit: base.limit, paths }, reversed: !forward, mode: 'keyset' };
}

/** `{$and: [a, b]}`, or just `b` when `a` has no condition. */
export function andWhere(
  where: Record<string, unknown> | undefined,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  if (!where || Object.keys(where).length === 0) return extra;
  return { $and: [where, extra] };
}

export interface PagerState {
  canPrevious: boolean;
  canNext: boolean;
  previous: { cursor?: Cursor; skip: number } | null;
  next: { cursor?: Cursor; skip: number } | null;
}

/**
 * Where Previous and Next lead, from the page shown. `hasMore` says whether more records lie
 * beyond the page in the direction it was fetched.
 */
export function pagerFor(
  plan: PagePlan,
  base: BaseQuery,
  cursor: Cursor | undefined,
  rows: readonly { _id: string }[],
  hasMore: boolean,
): PagerState {
  if (plan.mode === 'skip') {
    const canPrevious = base.skip > 0;
    return {
      canPrevious,
      canNext: hasMore,
      previous: canPrevious ? { skip: Math.max(0, base.skip - base.limit) } : null,
      next: hasMore ? { skip: base.skip + base.limit } : null,
    };
  }
  const first = rows[0]?._id;
  const last = rows[rows.length - 1]?._id;
  // Fetched backwards: hasMore means more before; the page we came from lies after.
  const moreBefore = cursor?.dir === 'before' ? hasMore : cursor !== undefined || base.skip > 0;
  const moreAfter = cursor?.dir === 'before' ? true : hasMore;
  const canPrevious = moreBefore && first !== undefined;
  const canNext = moreAfter && last !== undefined;
  return {
    canPrevious,
    canNext,
    previous: canPrevious && first ? { cursor: { dir: 'before', id: first }, skip: 0 } : null,
    next: canNext && last ? { cursor: { dir: 'after', id: last }, skip: 0 } : null,
  };
}
