import type { FaultBody } from '../../src-shared/faults';
import { CLIENT_KEY_HEADER as APP_KEY_HEADER, CSRF_HEADER } from '../../src-shared/contracts/http';
import { ApiError, faultFromBody, isSessionEndingFault, toApiError } from './api-error';
import { sendJson, type FetchLike, type HttpMethod } from './http';
import { buildQueryString, type QueryValue } from './query-string';

export interface OrgRequestOptions {
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

type SessionEndedListener = (fault: FaultBody) => void;

/**
 * Requests to one org's `/<org>/v2` API as the console's session app. Holds the latest CSRF token
 * in memory only (never in storage, so another script on the page cannot read it back later) and
 * sends it on every mutation.
 */
export class OrgClient {
  readonly org: string;
  /** The session app's key; shown in "Copy as curl" (it is not a secret: every page load reads it). */
  readonly appKey: string;
  private readonly fetchImpl: FetchLike;
  private csrfToken: string | null = null;
  private readonly sessionEndedListeners = new Set<SessionEndedListener>();

  constructor(org: string, appKey: string, fetchImpl: FetchLike) {
    this.org = org;
    this.appKey = appKey;
    this.fetchImpl = fetchImpl;
  }

  get<T>(path: string, options: Omit<OrgRequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, { body });
  }

  async request<T>(method: HttpMethod, path: string, options: OrgRequestOptions = {}): Promise<T> {
    return (await this.requestWithHeaders<T>(method, path, options)).data;
  }

  /** As `request`, with the answer's headers (e.g. a script run's `Service-Sandbox-Stats`). */
  async requestWithHeaders<T>(
    method: HttpMethod,
    path: string,
    options: OrgRequestOptions = {},
  ): Promise<{ data: T; headers: Headers }> {
    const headers: Record<string, string> = { [APP_KEY_HEADER]: this.appKey };
    if (method !== 'GET' && this.csrfToken !== null) headers[CSRF_HEADER] = this.csrfToken;
    const url = `/${encodeURIComponent(this.org)}/v2/${path}${buildQueryString(options.query ?? {})}`;
    try {
      const { data, headers: responseHeaders } = await sendJson<T>(this.fetchImpl, {
        method,
        url,
        headers,
        body: options.body,
        signal: options.signal,
      });
      const token = responseHeaders.get(CSRF_HEADER);
      if (token) this.csrfToken = token;
      return { data, headers: responseHeaders };
    } catch (error) {
      if (error instanceof ApiError && isSessionEndingFault(error.fault)) this.endSession(error.fault);
      throw error;
    }
  }

  /**
   * A request whose answer is not one JSON document (NDJSON exports and import logs), or whose
   * body is a file: the answer's text when the status is OK, else the fault it carries. A fault
   * document alone on an OK answer is a fault too (the service sends some with status 200).
   */
  async requestText(
    method: HttpMethod,
    path: string,
    options: {
      body?: BodyInit;
      contentType?: string;
      accept?: string;
      query?: Readonly<Record<string, QueryValue>>;
      /** Called with the text received so far as the answer streams in (NDJSON progress). */
      onProgress?: (textSoFar: string) => void;
    } = {},
  ): Promise<string> {
    const headers: Record<string, string> = { [APP_KEY_HEADER]: this.appKey, Accept: options.accept ?? '*/*' };
    if (method !== 'GET' && this.csrfToken !== null) headers[CSRF_HEADER] = this.csrfToken;
    if (options.contentType) headers['Content-Type'] = options.contentType;
    const url = `/${encodeURIComponent(this.org)}/v2/${path}${buildQueryString(options.query ?? {})}`;
    let response: Response;
    let text: string;
    try {
      const init: RequestInit = { method, headers, credentials: 'same-origin' };
      if (options.body !== undefined) init.body = options.body;
      response = await this.fetchImpl(url, init);
      text = options.onProgress ? await readProgressively(response, options.onProgress) : await response.text();
    } catch (error) {
      throw toApiError(error);
    }
    const token = response.headers.get(CSRF_HEADER);
    if (token) this.csrfToken = token;
    const single = parseFault(text);
    if (!response.ok || single) {
      const error = new ApiError(faultFromBody(single ?? parseJson(text), response.status), response.headers);
      if (isSessionEndingFault(error.fault)) this.endSession(error.fault);
      throw error;
    }
    return text;
  }

  /** Forget the CSRF token, e.g. after logout. */
  forgetSession(): void {
    this.csrfToken = null;
  }

  /** Called when any request finds the session gone (expired, logged in elsewhere). */
  onSessionEnded(listener: SessionEndedListener): () => void {
    this.sessionEndedListeners.add(listener);
    return () => this.sessionEndedListeners.delete(listener);
  }

  private endSession(fault: FaultBody): void {
    this.csrfToken = null;
    for (const listener of this.sessionEndedListeners) listener(fault);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The answer when it is one fault document (not an NDJSON stream that merely mentions one). */
function parseFault(text: string): FaultBody | undefined {
  const body = parseJson(text.trim());
  return typeof body === 'object' && body !== null && (body as { object?: unknown }).object === 'fault'
    ? (body as FaultBody)
    : undefined;
}

async function readProgressively(response: Response, onProgress: (textSoFar: string) => void): Promise<string> {
  if (!response.body) return response.text();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += value;
    onProgress(text);
  }
}
