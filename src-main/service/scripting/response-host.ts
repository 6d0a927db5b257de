/**
 * What a script run answers over HTTP when it shapes the answer itself with
 * `require('response')` (`setStatusCode`, `setHeader`, `write`, `next`): the host functions that
 * collect it, and the envelope of a returned value. Used by route scripts (routes/script-routes.ts)
 * and Script policies (policies/run-policy.ts), so both answer alike.
 */
import { fault } from '../../../src-shared/faults.js';

/**
 * Headers a script may not set. `content-type` among them: what `write` sends is JSON, and
 * this origin also serves the console, so a script must not make it serve HTML.
 */
const FORBIDDEN_HEADERS = new Set(['set-cookie', 'content-length', 'transfer-encoding', 'connection', 'content-type']);

export interface RouteAnswer {
  status?: number;
  headers: Record<string, string>;
  hasBody?: boolean;
  body?: unknown;
  next?: boolean;
}

export function responseHost(answer: RouteAnswer) {
  return {
    'response.status'(code: unknown) {
      if (typeof code !== 'number' || !Number.isInteger(code) || code < 200 || code > 599)
        throw fault('invalidArgument', undefined, { path: 'status', reason: 'A status code from 200 to 599.' });
      answer.status = code;
    },
    'response.header'(name: unknown, value: unknown) {
      if (typeof name !== 'string' || !/^[A-Za-z0-9-]{1,100}$/.test(name) || FORBIDDEN_HEADERS.has(name.toLowerCase()))
        throw fault('invalidArgument', undefined, { path: 'header', reason: 'Not a header a script may set.' });
      if (typeof value !== 'string' || value.length > 8192 || /[\r\n]/.test(value))
        throw fault('invalidArgument', undefined, { path: 'header', reason: 'Header values are single-line strings.' });
      answer.headers[name] = value;
    },
    'response.body'(body: unknown) {
      answer.hasBody = true;
      answer.body = body;
    },
    'route.next'() {
      answer.next = true;
    },
  };
}

/** docs/scripting.md: primitives `{object:"result", data}`, arrays as a list, objects as they are. */
export function envelope(value: unknown): unknown {
  if (Array.isArray(value)) return { object: 'list', data: value, hasMore: false };
  if (value === null || value === undefined || typeof value !== 'object')
    return { object: 'result', data: value ?? null };
  return value;
}
