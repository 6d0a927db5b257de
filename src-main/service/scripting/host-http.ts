/**
 * `require('http')` (issue 40): outbound requests from scripts. Trust boundary: the URL, headers
 * and body come from a script. Off unless an administrator turns it on for the org
 * (`npm run admin -- org set scriptHttpEnabled true`) and then only to the hosts listed in
 * `scriptHttpHosts` (exact host names or addresses, an optional `:port`); anything else is refused
 * before a connection is made. Answers are bounded in size and time.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Org } from '../orgs/orgs.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;

/** The target of a request if the org allows it; a fault naming why not otherwise. */
export function httpTarget(org: Org, raw: unknown): URL {
  if (org.settings.scriptHttpEnabled !== true) {
    throw fault('notImplemented', 'module', {
      path: 'http',
      reason:
        "The module 'http' is off for this org: an administrator turns it on (scriptHttpEnabled) and lists the hosts scripts may call (scriptHttpHosts).",
    });
  }
  let url: URL;
  try {
    if (typeof raw !== 'string') throw new Error('not a string');
    url = new URL(raw);
  } catch {
    throw fault('invalidArgument', 'url', { reason: 'Invalid url format.' });
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '' || url.username || url.password) {
    throw fault('invalidArgument', 'url', { reason: 'Invalid url format.' });
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const allowed = (org.settings.scriptHttpHosts ?? []).some((entry) => {
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry.trim().toLowerCase());
    if (!m) return false;
    const name = (m[1] ?? '').replace(/^\[|\]$/g, '');
    return name === host && (m[2] === undefined || m[2] === port);
  });
  if (!allowed) throw fault('accessDenied', 'http', { reason: `access to host is prohibited (${host}:${port})` });
  return url;
}

function headersOf(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (/^[A-Za-z0-9-]{1,100}$/.test(k) && typeof v === 'string' && v.length <= 8192 && !/[\r\n]/.test(v)) out[k] = v;
  }
  return out;
}

export function httpHost(org: Org) {
  return {
    async 'http.request'(method: unknown, rawUrl: unknown, options: unknown) {
      const verb = String(method).toUpperCase();
      if (!METHODS.has(verb))
        throw fault('invalidArgument', 'http', { reason: `Unsupported method ${String(method)}.` });
      const url = httpTarget(org, rawUrl);
      const o = (typeof options === 'object' && options !== null ? options : {}) as Record<string, unknown>;
      const timeout =
        typeof o.timeout === 'number' && o.timeout > 0 ? Math.min(o.timeout, DEFAULT_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
      const body =
        o.body === undefined || verb === 'GET' || verb === 'HEAD'
          ? undefined
          : typeof o.body === 'string'
            ? o.body
            : JSON.stringify(o.body);
      let res: Response;
      try {
        res = await fetch(url, {
          method: verb,
          headers: headersOf(o.headers),
          ...(body === undefined ? {} : { body }),
          redirect: 'manual',
          signal: AbortSignal.timeout(timeout),
        });
      } catch (e) {
        throw fault('error', 'http', { reason: `The request failed: ${(e as Error).name}.` });
      }
      const text = await res.text();
      if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
        throw fault('tooLarge', 'http', { reason: 'The answer is larger than 1 MiB.' });
      }
      return { statusCode: res.status, headers: Object.fromEntries(res.headers.entries()), body: text };
    },
  };
}
