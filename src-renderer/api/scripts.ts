import { queryOptions } from '@tanstack/react-query';
import type { FaultBody } from '../../src-shared/faults';
import { ApiError, toApiError } from './api-error';
import type { HttpMethod } from './http';
import type { OrgClient } from './org-client';
import type { ListEnvelope } from './types';

/** The runner's statistics header (docs/scripting.md). */
export const SANDBOX_STATS_HEADER = 'Service-Sandbox-Stats';
/** The `_id` of the run's log entry (issue 41): `GET /logs/<_id>` has its console output. */
export const SCRIPT_LOG_HEADER = 'Service-Script-Log';

export type ScriptType = 'route' | 'library' | 'job' | 'trigger';
/** The types the Save panel offers. */
export const SCRIPT_TYPES: readonly ScriptType[] = ['library', 'route', 'trigger', 'job'];
/** When a trigger runs (issue 41, docs/scripting.md#triggers): before or after a record is written. */
export const TRIGGER_EVENTS = [
  'create.before',
  'create.after',
  'update.before',
  'update.after',
  'delete.before',
  'delete.after',
] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];
export const ROUTE_METHODS = ['*', 'get', 'post', 'put', 'patch', 'delete'] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];

/** A route script's settings (README "Route settings", §C). */
export interface ScriptConfiguration {
  method?: RouteMethod;
  path?: string;
  priority?: number;
  acl?: string[];
  authValidation?: string;
  apiKey?: string;
  principal?: string;
  /** A library's module name: `require('<export>')` (issue 40). */
  export?: string;
  /** Triggers (issue 41): the object type and event; jobs: the schedule. */
  object?: string;
  event?: string;
  inline?: boolean;
  cron?: string;
}

/** A script of the library (`/scripts`); only the fields the console reads are typed. */
export interface ScriptRecord {
  _id: string;
  label?: string;
  name?: string;
  description?: string;
  type: ScriptType;
  active?: boolean;
  script: string;
  configuration?: ScriptConfiguration;
  /** Among route scripts of equal priority, higher is tried first. */
  weight?: number;
}

/** A record to write: null clears a property on PATCH. */
export type ScriptDraft = Omit<ScriptRecord, '_id' | 'description' | 'configuration' | 'weight'> & {
  description?: string | null;
  configuration?: ScriptConfiguration | null;
  weight?: number | null;
};

export interface RunRequest {
  script: string;
  arguments: unknown;
}

/** What one run answered: the value, or the fault; with the raw stats header and any console output. */
export type RunAnswer =
  | { ok: true; value: unknown; logs: unknown; statsHeader: string | null }
  | { ok: false; fault: FaultBody & { trace?: unknown; logs?: unknown }; statsHeader: string | null };

export const scriptKeys = {
  all: (org: string) => ['org', org, 'scripts'] as const,
};

/** `POST /sys/script_runner` with the body the original clients send (docs/scripting.md). */
export async function runScript(orgClient: OrgClient, request: RunRequest, signal: AbortSignal): Promise<RunAnswer> {
  const body: Record<string, unknown> = {
    script: request.script,
    language: 'javascript',
    specification: 'es6',
    arguments: request.arguments,
  };
  try {
    const { data, headers } = await orgClient.requestWithHeaders<{ data?: unknown; logs?: unknown }>(
      'POST',
      'sys/script_runner',
      { body, signal },
    );
    // Console output, where the service sends it, rides on the envelope (a returned object is the body itself).
    const enveloped =
      (data as { object?: unknown }).object === 'result' || (data as { object?: unknown }).object === 'list';
    const logs = enveloped && data.logs !== undefined ? data.logs : await loggedConsole(orgClient, headers, signal);
    return { ok: true, value: data, logs, statsHeader: headers.get(SANDBOX_STATS_HEADER) };
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.errCode === 'console.network.aborted') throw apiError;
    return { ok: false, fault: apiError.fault, statsHeader: apiError.headers?.get(SANDBOX_STATS_HEADER) ?? null };
  }
}

const LOG_ID = /^[0-9a-f]{24}$/;

/**
 * The console output of a run that did not carry it (a returned object, a cursor, `script.exit`):
 * read from the run's log entry named by the answer's header. Absent when there is none to read.
 */
async function loggedConsole(orgClient: OrgClient, headers: Headers, signal: AbortSignal): Promise<unknown> {
  const id = headers.get(SCRIPT_LOG_HEADER);
  if (id === null || !LOG_ID.test(id)) return undefined;
  try {
    return (await orgClient.get<{ console?: unknown }>(`logs/${id}`, { signal })).console;
  } catch {
    return undefined;
  }
}

export function scriptsQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: scriptKeys.all(orgClient.org),
    queryFn: async ({ signal }): Promise<ScriptRecord[]> =>
      (await orgClient.get<ListEnvelope<ScriptRecord>>('scripts', { query: { limit: 100 }, signal })).data,
  });
}

/** A route a library registers with `@route` (issue 40), as `org.read('runtime')` lists it. */
export interface DecoratedRoute {
  configuration: { method?: string; path?: string; acl?: unknown };
  metadata: { className: string; methodName: string; resource?: string };
}

/** What the org's libraries register, read with a runner script (`org.read('runtime').routes`). */
export function decoratedRoutesQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: [...scriptKeys.all(orgClient.org), 'runtime'] as const,
    queryFn: async ({ signal }): Promise<DecoratedRoute[]> => {
      const answer = await orgClient.request<{ data?: DecoratedRoute[] }>('POST', 'sys/script_runner', {
        body: { script: "return org.read('runtime').routes", language: 'javascript', specification: 'es6' },
        signal,
      });
      return Array.isArray(answer.data) ? answer.data : [];
    },
  });
}

export function saveScript(orgClient: OrgClient, draft: ScriptDraft, id?: string): Promise<ScriptRecord> {
  return id === undefined
    ? orgClient.post<ScriptRecord>('scripts', draft)
    : orgClient.request<ScriptRecord>('PATCH', `scripts/${encodeURIComponent(id)}`, { body: draft });
}

export interface RouteAnswer {
  ok: boolean;
  body: unknown;
}

/** "Try it": calls a route script as the signed-in administrator and answers its body or fault. */
export async function callRoute(orgClient: OrgClient, method: HttpMethod, path: string, body?: unknown) {
  const clean = path.replace(/^\/+/, '');
  try {
    const options = body === undefined || method === 'GET' || method === 'DELETE' ? {} : { body };
    return { ok: true, body: await orgClient.request<unknown>(method, `routes/${clean}`, options) } as RouteAnswer;
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, body: error.fault } as RouteAnswer;
    throw error;
  }
}
