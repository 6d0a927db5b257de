/**
 * The requests sent from the composer, newest first, kept in this window's memory only: an entry
 * holds its extra headers, and a header value can be a credential, so none of it goes to storage
 * or the URL. The app secret is never part of an entry (only what was sent, and the answer's status).
 * Per org, and bounded: the oldest entries are dropped first.
 */
import type { HttpMethod } from '../../api/http';
import type { Pair } from './request-parts';

export const MAX_HISTORY = 50;

/** What the form held when it was sent: loading it back fills the form (never the secret). */
export interface ComposedRequest {
  app: string | undefined;
  method: HttpMethod;
  /** Path with its query. */
  path: string;
  body: string;
  as: string;
  headers: Pair[];
}

export interface SentRequest extends ComposedRequest {
  id: number;
  /** When it was sent (ms since the epoch). */
  at: number;
  status?: number;
  errCode?: string;
  failure?: string;
}

const byOrg = new Map<string, SentRequest[]>();
let nextId = 1;

export function sentRequests(org: string): SentRequest[] {
  return [...(byOrg.get(org) ?? [])];
}

export function recordSent(org: string, entry: Omit<SentRequest, 'id'>): SentRequest[] {
  const list = [{ ...entry, headers: entry.headers.map((h) => ({ ...h })), id: nextId++ }, ...(byOrg.get(org) ?? [])];
  byOrg.set(org, list.slice(0, MAX_HISTORY));
  return sentRequests(org);
}

export function clearSent(org: string): void {
  byOrg.delete(org);
}

/**
 * One text per distinct request, to tell whether the form still describes what was sent (Replay
 * re-sends the exact headers of the last send, so it is offered only while nothing changed).
 * Blank header rows and a body the method does not send do not count.
 */
export function requestKey(request: ComposedRequest, sendsBody: boolean): string {
  return JSON.stringify([
    request.app ?? '',
    request.method,
    request.path,
    sendsBody ? request.body : '',
    request.as.trim(),
    request.headers
      .filter((h) => h.name.trim() !== '' || h.value.trim() !== '')
      .map((h) => [h.name.trim(), h.value.trim()]),
  ]);
}
