import { ApiError, consoleFault, faultFromBody, toApiError } from './api-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface JsonRequest {
  method: HttpMethod;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export interface JsonResponse<T> {
  data: T;
  headers: Headers;
}

/**
 * Sends one same-origin JSON request and returns the parsed body. Every failure — no connection,
 * a non-JSON body, an error status, or a fault sent with status 200 (docs/faults.md, kNewLocation)
 * — is thrown as an ApiError. The caller types `T`; the body itself is not validated further.
 */
export async function sendJson<T>(fetchImpl: FetchLike, request: JsonRequest): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
  const init: RequestInit = { method: request.method, headers, credentials: 'same-origin' };
  if (request.signal) init.signal = request.signal;
  if (request.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(request.body);
  }

  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(request.url, init);
    text = await response.text();
  } catch (error) {
    throw toApiError(error);
  }

  const body = parseJsonOrUndefined(text);
  if (!response.ok || body === undefined || isFaultObject(body)) {
    if (response.ok && body === undefined) {
      throw new ApiError(
        consoleFault('http.invalidJson', response.status, 'The service sent a response that is not JSON.'),
        response.headers,
      );
    }
    throw new ApiError(faultFromBody(body, response.status), response.headers);
  }
  return { data: body as T, headers: response.headers };
}

function parseJsonOrUndefined(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isFaultObject(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { object?: unknown }).object === 'fault';
}
