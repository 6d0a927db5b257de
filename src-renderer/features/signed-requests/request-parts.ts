/**
 * The composer's query-parameter and header editors as pure functions: the query rows are the
 * query string of the request path (one source: the path in the URL state), the header rows are
 * extra request headers — held in memory only, since a header value can be a credential.
 */
import {
  ACCOUNT_HEADER,
  CLIENT_KEY_HEADER,
  NONCE_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_VERSION_HEADER,
  TIMESTAMP_HEADER,
} from '../../../src-shared/contracts/http';

export interface Pair {
  name: string;
  value: string;
}

/** The path without its query, and the query as rows (`?a=1&b` → a=1, b=''), decoded. */
export function splitPath(full: string): { path: string; params: Pair[] } {
  const at = full.indexOf('?');
  if (at === -1) return { path: full, params: [] };
  const params: Pair[] = [];
  for (const piece of full.slice(at + 1).split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const [name, value] = eq === -1 ? [piece, ''] : [piece.slice(0, eq), piece.slice(eq + 1)];
    params.push({ name: decode(name), value: decode(value) });
  }
  return { path: full.slice(0, at), params };
}

/** Malformed percent-encoding is kept as typed, so nothing is lost (the signer then names it). */
function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * The path with the rows as its query; rows without a name are left out (an empty row being
 * typed). A path that already holds a query (typed into the path box) keeps it, rows after it.
 */
export function joinPath(path: string, params: readonly Pair[]): string {
  const query = params
    .filter((p) => p.name !== '')
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value)}`)
    .join('&');
  if (query === '') return path;
  return path.includes('?')
    ? `${path}${path.endsWith('?') || path.endsWith('&') ? '' : '&'}${query}`
    : `${path}?${query}`;
}

/** Headers the signer sets itself: a row may not replace them (the signature would not match). */
const SIGNER_HEADERS = [
  CLIENT_KEY_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  NONCE_HEADER,
  SIGNATURE_VERSION_HEADER,
  ACCOUNT_HEADER,
].map((h) => h.toLowerCase());

/** Headers a browser will not let a page set (fetch drops them silently); said instead of dropped. */
const FORBIDDEN = new Set([
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'connection',
  'content-length',
  'cookie',
  'cookie2',
  'date',
  'dnt',
  'expect',
  'host',
  'keep-alive',
  'origin',
  'referer',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'via',
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export type HeaderCheck = { ok: true; headers: Record<string, string> } | { ok: false; problem: string };

/** The extra headers to send, or what is wrong with a row (in words). Empty rows are ignored. */
export function checkHeaders(rows: readonly Pair[]): HeaderCheck {
  const headers: Record<string, string> = {};
  for (const [index, row] of rows.entries()) {
    const name = row.name.trim();
    if (name === '' && row.value.trim() === '') continue;
    const where = `Header ${index + 1}`;
    if (!TOKEN.test(name)) return { ok: false, problem: `${where}: "${name}" is not a header name.` };
    const lower = name.toLowerCase();
    if (SIGNER_HEADERS.includes(lower)) {
      return { ok: false, problem: `${where}: ${name} is set by the signer (use the fields above).` };
    }
    if (FORBIDDEN.has(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-')) {
      return { ok: false, problem: `${where}: a browser does not let a page send ${name}.` };
    }
    if (/[\r\n\0]/.test(row.value)) return { ok: false, problem: `${where}: a value is one line.` };
    if (Object.keys(headers).some((h) => h.toLowerCase() === lower)) {
      return { ok: false, problem: `${where}: ${name} is given twice.` };
    }
    headers[name] = row.value.trim();
  }
  return { ok: true, headers };
}
