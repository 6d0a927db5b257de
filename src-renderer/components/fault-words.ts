import type { FaultBody } from '../../src-shared/faults';

/** A fault put into words for people; the errCode stays visible for support and searching. */
export interface FaultWords {
  headline: string;
  /** The service's own explanation, when it says more than the headline. */
  detail?: string;
  /** The property the fault is about, e.g. `email`. */
  path?: string;
  /** The errCode of the response as sent (the top-level fault). */
  errCode: string;
  /** The child fault's errCode when the headline comes from it. */
  cause?: string;
  status: number;
  children: FaultWords[];
}

/**
 * Plain words for the errCodes a console user meets (docs/faults.md and docs/sessions.md). Console-raised
 * faults (`console.*`) are written in plain words already and need no entry.
 */
const ERRCODE_WORDS: Readonly<Record<string, string>> = {
  'service.accessDenied.invalidCredentials': 'The email or password is not correct.',
  'service.accessDenied.accountLocked':
    'This account is locked after too many failed sign-in attempts. Wait, or ask an administrator to unlock it.',
  'service.accessDenied.notLoggedIn': 'You are not signed in.',
  'service.accessDenied.sessionExpired': 'Your session expired. Sign in again.',
  'service.accessDenied.loggedInElsewhere': 'You signed in somewhere else, so this session was ended.',
  'service.accessDenied.csrfTokenMismatch':
    'The request could not be verified (security token mismatch). Reload the page and try again.',
  'service.notFound.app': 'The console’s app key is not known to this org.',
  'service.accessDenied.app': 'The console’s app is disabled or not allowed for this request.',
  'service.accessDenied.scope': 'Your account is not allowed to do this.',
  'service.throttled.policy': 'Too many requests. Wait a moment and try again.',
  'service.invalidArgument.query': 'The query is not valid.',
  'service.invalidArgument.script': 'The script threw an error.',
  'service.validation.required': 'A required value is missing.',
  'service.exists': 'That already exists.',
};

/** Fallback words per category (the part after `service.`). */
const CATEGORY_WORDS: Readonly<Record<string, string>> = {
  invalidArgument: 'The request has an invalid value.',
  validation: 'Some values are not valid.',
  unsupportedOperation: 'This operation is not supported.',
  accessDenied: 'Access was denied.',
  notFound: 'It could not be found.',
  exists: 'That already exists.',
  conflict: 'It changed in the meantime; reload and try again.',
  expired: 'It has expired.',
  tooLarge: 'The request is too large.',
  throttled: 'Too many requests. Wait a moment and try again.',
  timeout: 'The service took too long to answer.',
  error: 'The service hit an unexpected error.',
  notImplemented: 'The service does not support this yet.',
};

export function describeFault(fault: FaultBody): FaultWords {
  const children = (fault.faults ?? []).map(describeFault);
  // A known child (e.g. accountLocked under invalidCredentials) says more than its parent.
  const knownChild = (fault.faults ?? []).find((child) => ERRCODE_WORDS[child.errCode] !== undefined);
  const source = knownChild ?? fault;
  const headline = wordsFor(source);
  const serviceText = source.reason ?? source.message;

  const words: FaultWords = {
    headline,
    errCode: fault.errCode,
    status: fault.status,
    children: knownChild ? children.filter((child) => child.errCode !== knownChild.errCode) : children,
  };
  if (serviceText && !sameText(serviceText, headline)) words.detail = serviceText;
  if (source.path) words.path = source.path;
  if (knownChild) words.cause = knownChild.errCode;
  return words;
}

function wordsFor(fault: FaultBody): string {
  const exact = ERRCODE_WORDS[fault.errCode];
  if (exact) return exact;
  const category = categoryOf(fault.errCode);
  const byCategory = category === undefined ? undefined : CATEGORY_WORDS[category];
  return byCategory ?? (fault.message || 'Something went wrong.');
}

/** `service.accessDenied.scope` → `accessDenied`. */
export function categoryOf(errCode: string): string | undefined {
  const [prefix, category] = errCode.split('.');
  return prefix === 'service' ? category : undefined;
}

function sameText(a: string, b: string): boolean {
  const normalize = (s: string) =>
    s
      .trim()
      .replace(/[.!]+$/, '')
      .toLowerCase();
  return normalize(a) === normalize(b);
}
