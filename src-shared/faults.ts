/**
 * Fault contract shared by the service and the console (docs/faults.md).
 * Every error the service answers is a `FaultBody`; the console renders them in plain words.
 */

/** Category → code → HTTP status, exactly as docs/faults.md fixes them. */
export const FAULT_CATEGORIES = {
  invalidArgument: { code: 'kInvalidArgument', status: 400 },
  validation: { code: 'kValidationError', status: 400 },
  unsupportedOperation: { code: 'kUnsupportedOperation', status: 400 },
  accessDenied: { code: 'kAccessDenied', status: 403 },
  notFound: { code: 'kNotFound', status: 404 },
  exists: { code: 'kExists', status: 409 },
  conflict: { code: 'kConflict', status: 409 },
  expired: { code: 'kExpired', status: 403 },
  tooLarge: { code: 'kRequestTooLarge', status: 413 },
  throttled: { code: 'kThrottled', status: 429 },
  timeout: { code: 'kTimeout', status: 504 },
  error: { code: 'kError', status: 500 },
  notImplemented: { code: 'kNotImplemented', status: 501 },
} as const;

export type FaultCategory = keyof typeof FAULT_CATEGORIES;

/**
 * errCodes that carry a code of their own instead of their category's (docs/compatibility.md#requests-cookies-and-fault-codes):
 * the original system's clients switch on these codes (re-login on kSessionExpired, and so on).
 * Keyed by `<category>.<detail>`; `name` overrides the fault's name where §G fixes one.
 */
export const OWN_FAULT_CODES: Readonly<Record<string, { code: string; status?: number; name?: string }>> = {
  'accessDenied.notLoggedIn': { code: 'kNotLoggedIn' },
  'accessDenied.sessionExpired': { code: 'kSessionExpired', name: 'sessions' },
  'accessDenied.loggedInElsewhere': { code: 'kLoggedInElsewhere' },
  'accessDenied.csrfTokenMismatch': { code: 'kCSRFTokenMismatch' },
  'accessDenied.invalidCredentials': { code: 'kInvalidCredentials' },
  'accessDenied.accountLocked': { code: 'kAccountLocked' },
  'accessDenied.unverifiedLocation': { code: 'kUnverifiedLocation' },
  'accessDenied.invalidRequestSignature': { code: 'kInvalidRequestSignature' },
  'invalidArgument.staleRequestSignature': { code: 'kStaleRequestSignature' },
  'accessDenied.registration': { code: 'kSelfRegistrationDisabled' },
};

export interface FaultBody {
  object: 'fault';
  name: string;
  code: string;
  errCode: string;
  status: number;
  message: string;
  reason?: string;
  path?: string;
  faults?: FaultBody[];
  /** Set on 5xx answers: the same id is in the service's log line with the cause. */
  requestId?: string;
}

export interface FaultInit {
  message?: string;
  reason?: string;
  path?: string;
  faults?: FaultBody[];
}

/** Default messages, so that a fault raised with only its errCode still reads well. */
const DEFAULT_MESSAGES: Record<FaultCategory, string> = {
  invalidArgument: 'Invalid argument.',
  validation: 'Validation error.',
  unsupportedOperation: 'Unsupported operation.',
  accessDenied: 'Access denied.',
  notFound: 'Resource not found.',
  exists: 'Resource already exists.',
  conflict: 'Conflict.',
  expired: 'Expired.',
  tooLarge: 'Request too large.',
  throttled: 'Too many requests.',
  timeout: 'The operation timed out.',
  error: 'An unexpected error occurred.',
  notImplemented: 'Not implemented.',
};

/**
 * Builds a fault body. `detail` is the part after the category, e.g.
 * `makeFault('invalidArgument', 'query', {...})` → errCode `service.invalidArgument.query`.
 */
export function makeFault(category: FaultCategory, detail?: string, init: FaultInit = {}): FaultBody {
  const own = detail === undefined ? undefined : OWN_FAULT_CODES[`${category}.${detail}`];
  const code = own?.code ?? FAULT_CATEGORIES[category].code;
  const status = own?.status ?? FAULT_CATEGORIES[category].status;
  const body: FaultBody = {
    object: 'fault',
    name: own?.name ?? (category === 'validation' ? 'validation' : 'error'),
    code,
    errCode: detail ? `service.${category}.${detail}` : `service.${category}`,
    status,
    message: init.message ?? DEFAULT_MESSAGES[category],
  };
  if (init.reason !== undefined) body.reason = init.reason;
  if (init.path !== undefined) body.path = init.path;
  if (init.faults !== undefined && init.faults.length > 0) body.faults = init.faults;
  return body;
}

/** An exception carrying a fault body; thrown anywhere in the service, rendered by one handler. */
export class FaultError extends Error {
  readonly fault: FaultBody;
  constructor(fault: FaultBody) {
    super(fault.reason ?? fault.message);
    this.name = 'FaultError';
    this.fault = fault;
  }
}

export function fault(category: FaultCategory, detail?: string, init: FaultInit = {}): FaultError {
  return new FaultError(makeFault(category, detail, init));
}

export function isFaultBody(value: unknown): value is FaultBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { object?: unknown }).object === 'fault' &&
    typeof (value as { errCode?: unknown }).errCode === 'string'
  );
}
