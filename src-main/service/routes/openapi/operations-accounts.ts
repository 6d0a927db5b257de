import type { OperationTable } from './operation-doc.js';
import { listOf, ref, resultOf } from './components.js';
import { PAGE_ARGUMENTS, PATHS_ARGUMENT } from './list-arguments.js';

const ACCOUNT = ref('Account');
const OK = ref('Ok');
const NOT_LOGGED_IN =
  'accessDenied: not logged in (kNotLoggedIn), the session expired (kSessionExpired) or was ended elsewhere (kLoggedInElsewhere).';
const SESSION_ONLY = `${NOT_LOGGED_IN} A token or a signed request cannot do this (principal).`;
const ADMIN = 'accessDenied: the caller is not an org administrator, or its token lacks admin.update.';
const NEW_LOCATION = ref('Fault');

/** Logging in and out, the caller's own account, and the administrators' account tools. */
export const ACCOUNT_OPERATIONS: OperationTable = {
  'POST /{org}/v2/accounts/login': {
    summary: 'Log in',
    description:
      'Starts a session of the session app named by Service-Client-Key: sets the session cookie and answers the ' +
      'account, with the CSRF token in the Service-Csrf-Token header. A login from a new browser, when the org ' +
      'verifies locations, answers the kNewLocation fault with status 200: send again with location.verificationToken ' +
      'from the email.',
    tag: 'Sessions',
    caller: 'anyone',
    answer: { description: 'Logged in (the account), or kNewLocation.', schema: { oneOf: [ACCOUNT, NEW_LOCATION] } },
    faults: {
      400: 'validation: email or password missing or too long.',
      403: 'accessDenied: wrong email or password (kInvalidCredentials), the account is locked (kAccountLocked), a second factor is needed (totpRequired) or wrong; the app is not a session app.',
      404: 'notFound.app: no session application key was sent.',
      429: 'throttled: too many attempts at once, or too many verification emails.',
      504: 'timeout: the credential checks are queued for too long.',
    },
    example: { body: { email: 'admin@example.test', password: 'correct horse battery' } },
  },
  'POST /{org}/v2/accounts/register': {
    summary: 'Register an account',
    description: 'Self-registration, when the org allows it; starts a session like a login.',
    tag: 'Sessions',
    caller: 'anyone',
    answer: { description: 'The new account.', schema: ACCOUNT },
    faults: {
      400: 'validation: the email is not an address, the password is too weak, a field is not allowed.',
      403: 'accessDenied: registration is turned off (kSelfRegistrationDisabled); the app is not a session app.',
      429: 'throttled: too many registrations from anonymous callers.',
    },
    example: {
      body: {
        email: 'newcomer@example.test',
        password: 'a long enough passphrase',
        name: { first: 'Ada', last: 'Lee' },
      },
    },
  },
  'POST /{org}/v2/accounts/me/logout': {
    summary: 'Log out',
    description: 'Ends the session (if any) and clears its cookie.',
    tag: 'Sessions',
    caller: 'anyone',
    answer: { description: 'Logged out.', schema: OK },
    faults: {},
  },
  'GET /{org}/v2/accounts/me': {
    summary: "The caller's account",
    description: 'As GET /{org}/v2/accounts/{id} of the own account: the token must be allowed to read it.',
    tag: 'Sessions',
    caller: 'principal',
    query: PATHS_ARGUMENT,
    answer: { description: 'The account.', schema: ACCOUNT },
    faults: {
      400: 'invalidArgument.query: a bad paths[] argument.',
      403: `${NOT_LOGGED_IN} The token's scopes do not allow reading the account (scope).`,
      404: 'notFound.instance: the account no longer exists.',
    },
  },
  'GET /{org}/v2/accounts/status': {
    summary: 'Whether the caller is logged in',
    description:
      'Never a fault for an anonymous caller: loggedin is false. The account comes when the caller may read it.',
    tag: 'Sessions',
    caller: 'anyone',
    answer: {
      description: 'The status.',
      schema: resultOf({
        type: 'object',
        required: ['loggedin'],
        properties: { loggedin: { type: 'boolean' }, account: { oneOf: [ACCOUNT, { type: 'null' }] } },
      }),
    },
    faults: {},
  },
  'POST /{org}/v2/accounts/verify': {
    summary: 'Verify the email address',
    description: 'With the token the verification email carried.',
    tag: 'Account',
    caller: 'anyone',
    answer: { description: 'The verified account.', schema: ACCOUNT },
    faults: {
      400: 'validation: no token.',
      403: 'accessDenied.invalidToken: not a valid or unused token; expired.token: it expired.',
    },
  },
  'POST /{org}/v2/accounts/me/update-password': {
    summary: 'Change the own password',
    description: 'In a logged-in session only. Every session of the account ends; the caller continues in a new one.',
    tag: 'Account',
    caller: 'session',
    answer: { description: 'Changed.', schema: OK },
    faults: {
      400: 'validation: the new password is too weak.',
      403: `${SESSION_ONLY} The current password is wrong (kInvalidCredentials).`,
    },
  },
  'POST /{org}/v2/accounts/request-password-reset': {
    summary: 'Ask for a password-reset email',
    description: 'Answers the same whether or not the address has an account (no account oracle).',
    tag: 'Account',
    caller: 'anyone',
    answer: { description: 'Asked.', schema: OK },
    faults: { 400: 'validation: no email.', 429: 'throttled: too many requests.' },
    example: { body: { email: 'admin@example.test' } },
  },
  'POST /{org}/v2/accounts/reset-password': {
    summary: 'Reset the password with an emailed token',
    tag: 'Account',
    caller: 'anyone',
    answer: { description: 'Reset; every session of the account ended.', schema: OK },
    faults: {
      400: 'validation: the password is too weak.',
      403: 'accessDenied.invalidToken: not a valid or unused token; expired.token: it expired.',
    },
  },
  'POST /{org}/v2/accounts/me/totp': {
    summary: 'Enrol an authenticator app',
    description: 'Answers the secret and its otpauth:// URI; confirm with a first code.',
    tag: 'Account',
    caller: 'session',
    answer: { description: 'The enrolment.', schema: resultOf({ type: 'object', additionalProperties: true }) },
    faults: { 403: `${SESSION_ONLY} Wrong password.`, 409: 'exists.totp: an authenticator is already active.' },
  },
  'POST /{org}/v2/accounts/me/totp/confirm': {
    summary: 'Confirm the authenticator with a first code',
    tag: 'Account',
    caller: 'session',
    answer: { description: 'Active.', schema: resultOf({ type: 'object', properties: { active: { const: true } } }) },
    faults: {
      403: `${SESSION_ONLY} Wrong code.`,
      404: 'notFound.totp: no enrolment started.',
      409: 'exists.totp: already active.',
    },
  },
  'DELETE /{org}/v2/accounts/me/totp': {
    summary: 'Remove the authenticator',
    tag: 'Account',
    caller: 'session',
    answer: { description: 'Removed.', schema: OK },
    faults: { 403: `${SESSION_ONLY} Wrong password or code.`, 404: 'notFound.totp: no active authenticator.' },
  },
  'POST /{org}/v2/accounts/{id}/verify': {
    summary: "Mark an account's email verified",
    tag: 'Account administration',
    caller: 'admin',
    answer: { description: 'The account.', schema: ACCOUNT },
    faults: { 403: ADMIN, 404: 'notFound: no such account.' },
  },
  'POST /{org}/v2/accounts/{id}/unlock': {
    summary: 'Unlock an account locked by failed logins',
    tag: 'Account administration',
    caller: 'admin',
    answer: { description: 'The account.', schema: ACCOUNT },
    faults: { 403: ADMIN, 404: 'notFound: no such account.' },
  },
  'POST /{org}/v2/accounts/{id}/password': {
    summary: "Set an account's password",
    description: 'Every session of the account ends.',
    tag: 'Account administration',
    caller: 'admin',
    answer: { description: 'The account.', schema: ACCOUNT },
    faults: { 400: 'validation: the password is too weak.', 403: ADMIN, 404: 'notFound: no such account.' },
  },
  'POST /{org}/v2/accounts/{id}/reset-two-factor': {
    summary: "Remove an account's second factor",
    tag: 'Account administration',
    caller: 'admin',
    answer: { description: 'The account.', schema: ACCOUNT },
    faults: { 403: ADMIN, 404: 'notFound: no such account.' },
  },
  'GET /{org}/v2/sessions': {
    summary: "The org's live sessions",
    description: "`current` marks the caller's own.",
    tag: 'Account administration',
    caller: 'admin',
    query: PAGE_ARGUMENTS,
    answer: { description: 'A page of sessions.', schema: listOf({ type: 'object', additionalProperties: true }) },
    faults: { 400: 'invalidArgument: a bad skip or limit.', 403: ADMIN },
  },
  'DELETE /{org}/v2/sessions/{id}': {
    summary: 'End a session',
    tag: 'Account administration',
    caller: 'admin',
    answer: { description: 'Ended.', schema: OK },
    faults: { 403: ADMIN, 404: 'notFound.session: no live session has this id.' },
  },
  'GET /{org}/v2/outbox': {
    summary: 'Email the service would have sent',
    description: 'Verification, reset and location emails, newest first (the service sends no email).',
    tag: 'Organisation',
    caller: 'admin',
    query: PAGE_ARGUMENTS,
    answer: { description: 'A page of messages.', schema: listOf({ type: 'object', additionalProperties: true }) },
    faults: { 400: 'invalidArgument: a bad skip or limit.', 403: ADMIN },
  },
};
