import type { FastifyReply, FastifyRequest } from 'fastify';
import { fault, FaultError, type FaultBody } from '../../../src-shared/faults.js';
import { checkScope } from '../../../src-shared/scopes/index.js';
import type { Service } from '../service.js';
import type { Caller } from '../access/caller.js';
import { requireCaller } from '../http/context.js';
import { ANY_BODY, isRecord, type TypedServer } from '../http/route-schemas.js';
import { runScriptFor, type LoggedRun } from '../scripting/script-host.js';
import type { RunResult } from '../scripting/run-types.js';
import type { ScriptRequest } from '../scripting/protocol.js';
import { envelope } from '../scripting/response-host.js';
import { answerCursor } from './script-cursor.js';
import { answerTail, isTail } from './script-tail.js';
import { CSRF_HEADER } from '../auth/wire-names.js';
import {
  ACCOUNT_HEADER,
  NONCE_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  VERSION_HEADER,
} from '../auth/signatures/signature-auth.js';

export const SANDBOX_STATS_HEADER = 'Service-Sandbox-Stats';
/**
 * The `_id` of the run's log entry (issue 41): `GET /logs/<_id>` has its console output whatever
 * the run answered (a returned object, a cursor, `script.exit`, a fault).
 */
export const SCRIPT_LOG_HEADER = 'Service-Script-Log';

const RUNNER_KEYS = new Set(['script', 'language', 'specification', 'optimize', 'arguments', 'body']);

/**
 * Headers a script never sees (issue 38, Low 6): the caller's credentials — session cookie, CSRF
 * token, bearer token — and a signed request's signature headers. A script that logs or stores
 * its request must not hand a way to act as its caller to whoever reads it.
 */
const CREDENTIAL_HEADERS = new Set([
  'cookie',
  'authorization',
  CSRF_HEADER.toLowerCase(),
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  NONCE_HEADER,
  ACCOUNT_HEADER,
  VERSION_HEADER,
]);

/**
 * `POST /<org>/v2/sys/script_runner` (docs/scripting.md): org administrators run a script
 * ad hoc; a scope-limited caller needs `script.execute.runner`. The script's `require('request')`
 * sees this request's headers, method, path and query, and the posted `body` field as its body.
 */
export function scriptRunnerRoutes(svc: Service) {
  return async (server: TypedServer) => {
    server.post('/sys/script_runner', { schema: { body: ANY_BODY } }, async (request, reply) => {
      const caller = requireCaller(svc, request);
      if (!caller.orgAdmin)
        throw fault('accessDenied', 'principal', { reason: 'Only org administrators run scripts.' });
      requireScriptScope(caller, { action: 'runner' });
      const input = parseRunnerBody(request.body);
      const result = await runScriptFor(svc, {
        org: request.ctx.org,
        caller,
        source: input.script,
        arguments: input.arguments,
        request: scriptRequestOf(request, input.body),
      });
      const answer = presentRun(reply, result);
      if (result.ok && result.cursor && isTail(result.cursor)) {
        return answerTail(svc, request.ctx.org, result.cursor, request, reply);
      }
      if (result.ok && result.cursor) {
        return answerCursor(svc, request.ctx.org, caller, result.cursor, request, reply, logsOf(result));
      }
      return answer;
    });
  };
}

/** A scope-limited caller needs the script chain (`script.execute.runner`, `script.execute.route.<id>`, or a prefix). */
export function requireScriptScope(caller: Caller, target: { action: 'runner' | 'route'; identifier?: string }): void {
  if (caller.scopes === undefined) return;
  const decision = checkScope(caller.scopes, { kind: 'script', ...target });
  if (!decision.allowed) throw fault('accessDenied', 'scope', { reason: decision.explanation });
}

interface RunnerBody {
  script: string;
  arguments?: unknown;
  body?: unknown;
}

function parseRunnerBody(raw: unknown): RunnerBody {
  if (!isRecord(raw) || Array.isArray(raw))
    throw fault('invalidArgument', undefined, { reason: 'The body must be a JSON object.' });
  const body = raw;
  const unknown = Object.keys(body).find((key) => !RUNNER_KEYS.has(key));
  if (unknown !== undefined)
    throw fault('invalidArgument', undefined, {
      path: unknown,
      reason: `Unknown runner option ${unknown.slice(0, 64)}.`,
    });
  if (typeof body.script !== 'string' || body.script.trim() === '')
    throw fault('invalidArgument', undefined, { path: 'script', reason: 'script must be the source text.' });
  if (body.language !== undefined && body.language !== 'javascript')
    throw fault('invalidArgument', undefined, { path: 'language', reason: 'Only javascript is supported.' });
  return { script: body.script, arguments: body.arguments, body: body.body };
}

/** What `require('request')` shows a script: lower-case headers, the path without the org prefix. */
export function scriptRequestOf(
  request: FastifyRequest,
  body: unknown,
  params: Record<string, string> = {},
): ScriptRequest {
  const url = request.url;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const headers: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (CREDENTIAL_HEADERS.has(name.toLowerCase())) continue;
    headers[name.toLowerCase()] = value;
  }
  return {
    method: request.method,
    path,
    headers,
    body: body ?? null,
    query: isRecord(request.query) ? request.query : {},
    params,
  };
}

/**
 * §B: primitives `{object:"result", data}`, arrays as a list, objects as they are; faults with
 * `trace`. A returned cursor is answered by `answerCursor` (the caller checks `result.cursor`).
 */
export function presentRun(reply: FastifyReply, result: LoggedRun): unknown {
  reply.header(SANDBOX_STATS_HEADER, JSON.stringify(result.stats));
  if (result.logId !== undefined) reply.header(SCRIPT_LOG_HEADER, result.logId);
  reply.header('Access-Control-Expose-Headers', `${SANDBOX_STATS_HEADER}, ${SCRIPT_LOG_HEADER}`);
  // Captured console output travels with the answer (the console shows it beside the result).
  const logs = logsOf(result);
  if (!result.ok) throw new FaultError({ ...(result.fault as FaultBody), ...logs });
  const answer = envelope(result.value);
  const enveloped =
    (answer as { object?: unknown }).object === 'result' || (answer as { object?: unknown }).object === 'list';
  return enveloped ? { ...(answer as object), ...logs } : answer;
}

function logsOf(result: RunResult): { logs?: RunResult['logs'] } {
  return result.logs.length > 0 ? { logs: result.logs } : {};
}
