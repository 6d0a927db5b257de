/**
 * "Check against the service": mint a token carrying the tester's chains (and roles) for the
 * signed-in admin, perform each object row's request with it, and read the service's verdict —
 * so the tester's answer can be compared with what the service really does.
 *
 * Only requests that change nothing are sent: reads (one instance, or a list of one record) and
 * an empty update (`PATCH {}`). Creates and deletes are not sent.
 */
import { parseScopeChain } from '../../../src-shared/scopes';
import type { OrgClient } from '../../api/org-client';
import type { ResultEnvelope } from '../../api/types';
import { rowRequest, type TestRow, type Verdict } from './batch';

export interface ServiceAnswer {
  verdict: Verdict | 'skipped' | 'error';
  status?: number;
  errCode?: string;
  /** The service's reason, or our note on how the answer was read. */
  detail?: string;
  /** `METHOD /path` as sent. */
  request?: string;
}

export interface ServiceRequest {
  method: 'GET' | 'PATCH';
  /** Path relative to `/<org>/v2`, without a leading slash. */
  path: string;
  body?: unknown;
}

/** The request that asks the service the row's question; or why it is not sent. */
export function serviceRequestFor(
  row: TestRow,
  collectionOf: (objectType: string) => string | undefined,
): { ok: true; request: ServiceRequest } | { ok: false; reason: string } {
  const asked = rowRequest(row);
  if (!asked.ok) return { ok: false, reason: asked.problem };
  if (asked.request.kind !== 'object') return { ok: false, reason: 'executions are decided here only; not sent' };
  const { operation, objectType, instanceId } = asked.request;
  if (asked.request.subtype)
    return { ok: false, reason: 'subtypes are not sent (the request names the collection only)' };
  const collection = collectionOf(objectType);
  if (!collection) return { ok: false, reason: `this org has no object type ${objectType}` };
  const base = encodeURIComponent(collection);
  switch (operation) {
    case 'read':
      return instanceId
        ? { ok: true, request: { method: 'GET', path: `${base}/${instanceId}` } }
        : { ok: true, request: { method: 'GET', path: `${base}?limit=1` } };
    case 'update':
      if (!instanceId) return { ok: false, reason: 'an update needs an instance id' };
      if (asked.request.propertyPath) {
        return { ok: false, reason: 'PATCH {} tests the object, not one property; not sent' };
      }
      return { ok: true, request: { method: 'PATCH', path: `${base}/${instanceId}`, body: {} } };
    case 'create':
    case 'delete':
      return { ok: false, reason: `a ${operation} would change data; not sent` };
  }
}

/** Reads the service's verdict from its answer to `serviceRequestFor(row)`. */
export function verdictFromResponse(row: TestRow, status: number, body: unknown): ServiceAnswer {
  const fault = asFault(body);
  if (fault) {
    if (fault.errCode === 'service.accessDenied.scope') {
      return { verdict: 'denied', status, errCode: fault.errCode, detail: fault.reason ?? fault.message };
    }
    if (fault.errCode === 'service.notFound.instance') {
      // Scopes are checked before the record is loaded, so reaching notFound means they passed.
      return { verdict: 'allowed', status, errCode: fault.errCode, detail: 'scope passed; no such instance' };
    }
    return { verdict: 'error', status, errCode: fault.errCode, detail: fault.reason ?? fault.message };
  }
  if (status < 200 || status >= 300) return { verdict: 'error', status, detail: `HTTP ${status}` };
  const path = row.propertyPath.trim();
  if (row.operation !== 'read' || path === '') return { verdict: 'allowed', status };
  // A property-limited read answers 200 with the other properties stripped: look for the path.
  const record = recordOf(body);
  if (record === undefined) return { verdict: 'allowed', status, detail: 'no record to inspect for the property' };
  return hasPath(record, path)
    ? { verdict: 'allowed', status, detail: `${path} returned` }
    : { verdict: 'denied', status, detail: `${path} not returned (stripped, or unset on the record)` };
}

/** Valid chains only: the service refuses a token with an invalid chain, and the matcher ignores them anyway. */
export function tokenScopes(chains: readonly string[]): string[] {
  return [...new Set(chains.filter((chain) => parseScopeChain(chain).ok))].slice(0, 100);
}

export async function mintTesterToken(orgClient: OrgClient, scope: string[], roles: string[]): Promise<string> {
  const body: Record<string, unknown> = { app: orgClient.appKey, scope };
  if (roles.length > 0) body.roles = roles;
  const result = await orgClient.post<ResultEnvelope<string>>('accounts/me/tokens', body);
  return result.data;
}

/** Sends one request with the token only: no cookie (`credentials: 'omit'`), so the token decides. */
export async function askService(
  org: string,
  jwt: string,
  row: TestRow,
  request: ServiceRequest,
  fetchImpl: (input: string, init: RequestInit) => Promise<Response> = (input, init) => fetch(input, init),
): Promise<ServiceAnswer> {
  const init: RequestInit = {
    method: request.method,
    credentials: 'omit',
    cache: 'no-store',
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${jwt}`,
      ...(request.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
  };
  if (request.body !== undefined) init.body = JSON.stringify(request.body);
  const shown = `${request.method} /${org}/v2/${request.path}`;
  try {
    const response = await fetchImpl(`/${encodeURIComponent(org)}/v2/${request.path}`, init);
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      body = undefined;
    }
    return { ...verdictFromResponse(row, response.status, body), request: shown };
  } catch {
    return {
      verdict: 'error',
      errCode: 'console.network.unreachable',
      detail: 'The service could not be reached.',
      request: shown,
    };
  }
}

function asFault(body: unknown): { errCode: string; message?: string; reason?: string } | null {
  if (typeof body !== 'object' || body === null) return null;
  const value = body as { object?: unknown; errCode?: unknown; message?: unknown; reason?: unknown };
  if (value.object !== 'fault' || typeof value.errCode !== 'string') return null;
  return {
    errCode: value.errCode,
    ...(typeof value.message === 'string' ? { message: value.message } : {}),
    ...(typeof value.reason === 'string' ? { reason: value.reason } : {}),
  };
}

function recordOf(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = body as { object?: unknown; data?: unknown };
  if (value.object === 'list') {
    const first = Array.isArray(value.data) ? (value.data[0] as unknown) : undefined;
    return typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : undefined;
  }
  return body as Record<string, unknown>;
}

function hasPath(record: Record<string, unknown>, path: string): boolean {
  let current: unknown = record;
  for (const key of path.split('.')) {
    if (Array.isArray(current))
      current = current.find((item) => typeof item === 'object' && item !== null && key in item);
    if (typeof current !== 'object' || current === null || !(key in current)) return false;
    current = (current as Record<string, unknown>)[key];
  }
  return true;
}
