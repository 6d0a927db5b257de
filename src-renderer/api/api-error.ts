import { isFaultBody, type FaultBody } from '../../src-shared/faults';

/**
 * An error from a request, always carrying a fault body. Faults the service sent keep their
 * `service.*` errCode; failures the console detects itself (no connection, a body that is not
 * JSON) get a `console.*` errCode so the two are never confused.
 */
export class ApiError extends Error {
  readonly fault: FaultBody;
  /** The answer's headers when the service answered (script runs send their stats with a fault too). */
  readonly headers: Headers | undefined;

  constructor(fault: FaultBody, headers?: Headers) {
    super(fault.reason ?? fault.message);
    this.name = 'ApiError';
    this.fault = fault;
    this.headers = headers;
  }

  get errCode(): string {
    return this.fault.errCode;
  }

  get status(): number {
    return this.fault.status;
  }
}

/** A fault raised by the console itself, shaped like the service's so one component renders both. */
export function consoleFault(detail: string, status: number, message: string): FaultBody {
  return { object: 'fault', name: 'error', code: 'kError', errCode: `console.${detail}`, status, message };
}

/**
 * Trust boundary: `body` is whatever the server (or a proxy in front of it) answered.
 * A well-formed fault is passed on as is; anything else becomes a console fault.
 */
export function faultFromBody(body: unknown, status: number): FaultBody {
  if (isFaultBody(body)) return body;
  return consoleFault(
    'http.unexpectedResponse',
    status,
    `The service answered HTTP ${status} without a fault description.`,
  );
}

/** Wraps anything a request can throw (fetch's TypeError, an abort) into an ApiError. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DOMException && error.name === 'AbortError') {
    return new ApiError(consoleFault('network.aborted', 0, 'The request was cancelled.'));
  }
  return new ApiError(consoleFault('network.unreachable', 0, 'The service could not be reached. Is it running?'));
}

/** The fault behind any error a query or mutation reports (a bug in our code included). */
export function faultOf(error: unknown): FaultBody {
  if (error instanceof ApiError) return error.fault;
  const message = error instanceof Error ? error.message : String(error);
  return consoleFault('internal', 0, `The console failed: ${message}`);
}

/** Faults after which the session is gone and the console must ask to sign in again. */
export const SESSION_ENDING_ERRCODES: ReadonlySet<string> = new Set([
  'service.accessDenied.notLoggedIn',
  'service.accessDenied.sessionExpired',
  'service.accessDenied.loggedInElsewhere',
]);

export function isSessionEndingFault(fault: FaultBody): boolean {
  return SESSION_ENDING_ERRCODES.has(fault.errCode);
}
