import { CLIENT_KEY_HEADER, CSRF_HEADER } from '../../../../src-shared/contracts/http';

/** What the reference page sends as the console does: its org's session app and CSRF token. */
export interface ReferenceSession {
  org: string;
  /** The org's console application key (public: /_service/info lists it). */
  appKey: string | null;
  /** The session's CSRF token, refreshed from every answer that carries one. */
  csrf: string | null;
}

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Trust boundary: the fetch the API renderer is given, for the description and every "try it"
 * request. Only this service is reached — any other origin is refused before a byte leaves — and
 * each request to the org's API carries the console's credentials as the console sends them
 * (src-renderer/api/org-client.ts): the session cookie (same-origin), the app key, and the CSRF
 * token on writes.
 */
export function referenceFetch(session: ReferenceSession, origin: string, fetchImpl: Fetch): Fetch {
  return async (input, init = {}) => {
    const raw = input instanceof Request ? input.url : String(input);
    const url = new URL(raw, origin);
    if (url.origin !== origin) {
      throw new TypeError(`The API reference only calls this service (${origin}), not ${url.origin}.`);
    }
    const request = new Request(input instanceof Request ? input : url, init);
    const headers = new Headers(request.headers);
    // The page's session decides these (a value the renderer kept from earlier would be stale).
    if (url.pathname.startsWith(`/${encodeURIComponent(session.org)}/v2/`)) {
      if (session.appKey !== null) headers.set(CLIENT_KEY_HEADER, session.appKey);
      if (!SAFE.has(request.method) && session.csrf !== null) headers.set(CSRF_HEADER, session.csrf);
      else headers.delete(CSRF_HEADER);
    }
    const response = await fetchImpl(new Request(request, { headers, credentials: 'same-origin' }));
    const token = response.headers.get(CSRF_HEADER);
    if (token) session.csrf = token;
    return response;
  };
}
