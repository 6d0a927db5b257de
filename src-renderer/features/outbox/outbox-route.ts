/**
 * The Outbox & sessions screen's state in the URL hash:
 *
 *   #/outbox?skip=25&limit=25     outbox messages 26–50 (newest first)
 *
 * Trust boundary: the hash is user input; values out of range fall back to the defaults.
 */
import type { ScreenRoute } from '../../routing/route';
export const OUTBOX_PAGE_SIZES = [25, 50, 100] as const;
export type OutboxPageSize = (typeof OUTBOX_PAGE_SIZES)[number];
/** The service refuses a larger skip (docs/query-semantics.md). */
const MAX_SKIP = 500_000;

export interface OutboxState {
  skip: number;
  limit: OutboxPageSize;
}

declare module '../../routing/route' {
  interface ScreenStates {
    outbox: OutboxState;
  }
}

export type OutboxRoute = ScreenRoute<'outbox'>;

export const DEFAULT_OUTBOX_STATE: OutboxState = { skip: 0, limit: 25 };

export function isOutboxPageSize(value: number): value is OutboxPageSize {
  return (OUTBOX_PAGE_SIZES as readonly number[]).includes(value);
}

export function parseOutboxParams(params: URLSearchParams): OutboxState {
  const skipText = params.get('skip');
  const limitText = params.get('limit');
  const skip = skipText !== null && /^\d{1,7}$/.test(skipText) ? Math.min(Number(skipText), MAX_SKIP) : 0;
  const limit = limitText !== null && /^\d{1,3}$/.test(limitText) ? Number(limitText) : 25;
  return { skip, limit: isOutboxPageSize(limit) ? limit : 25 };
}

export function writeOutboxParams(state: OutboxState, params: URLSearchParams): void {
  params.set('skip', String(state.skip));
  params.set('limit', String(state.limit));
}

export function nextOutboxPage(state: OutboxState): OutboxState {
  return { ...state, skip: Math.min(state.skip + state.limit, MAX_SKIP) };
}

export function previousOutboxPage(state: OutboxState): OutboxState {
  return { ...state, skip: Math.max(state.skip - state.limit, 0) };
}
