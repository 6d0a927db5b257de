import type { JsonSchema, OperationTable } from './operation-doc.js';
import { listOf, ref, resultOf } from './components.js';

const APP = ref('App');
const OK = ref('Ok');
const ADMIN = 'accessDenied: the caller is not an org administrator, or its token lacks the admin scope.';
const NO_APP = 'notFound.app: no application with this key in this org.';
const SETTINGS_FAULT = 'validation: one child fault per unknown, mistyped or out-of-range setting.';

const APP_KEY = '<app key>';

const PUBLIC_KEYS: JsonSchema = {
  type: 'object',
  required: ['keys'],
  properties: { keys: { type: 'array', items: { type: 'object', additionalProperties: true } } },
};

const TOKEN_REQUEST: JsonSchema = {
  type: 'object',
  required: ['app'],
  additionalProperties: false,
  description: 'What the token may do; an unknown option is refused (a typo must not widen a token).',
  properties: {
    app: { type: 'string', description: 'The key of the issuing application (a key pair of its own).' },
    scope: {
      type: 'array',
      items: { type: 'string' },
      description: 'Scope chains (service/scp), e.g. object.read.account.*.name; * for all the subject may do.',
    },
    roles: { type: 'array', maxItems: 50, items: { type: 'string', pattern: '^[0-9a-f]{24}$' } },
    expiresIn: { type: 'integer', minimum: 1, description: "Seconds; the app's authDuration when absent." },
    activatesIn: { type: 'integer', minimum: 0, description: 'Seconds from now until it is usable (nbf).' },
    validAt: { type: ['integer', 'string'], description: 'When it is usable: Unix seconds or ISO 8601 with a zone.' },
    permanent: { type: 'boolean', description: 'No expiry; stored (jti) and so revocable.' },
    maxUses: { type: 'integer', minimum: 1, description: 'Authentications before it stops working (service/cnt).' },
    grant: { type: 'integer', minimum: 1, maximum: 7, description: 'Access level granted (service/gnt).' },
    skipAcl: { type: 'boolean' },
    bypassCreateAcl: { type: 'boolean' },
    includeEmail: { type: 'boolean', description: "Adds the subject's email (service/eml)." },
  },
};

const TOKEN_APP_QUERY = { app: APP_KEY };
const TOKENS_OF = 'Org administrators, or the account itself (id me).';

/** Applications, their public keys, and the tokens of accounts. */
export const APP_OPERATIONS: OperationTable = {
  'GET /{org}/v2/apps': {
    summary: 'List applications',
    description: 'Secrets are masked.',
    tag: 'Applications',
    caller: 'admin',
    answer: { description: 'Every application of the org.', schema: listOf(APP) },
    faults: { 403: ADMIN },
  },
  'POST /{org}/v2/apps': {
    summary: 'Create an application',
    description: "A signing app's secret is answered in full once, here.",
    tag: 'Applications',
    caller: 'admin',
    body: {
      schema: {
        allOf: [
          ref('AppSettings'),
          { type: 'object', required: ['kind', 'label'], properties: { kind: { enum: ['session', 'signing'] } } },
        ],
      },
    },
    answer: { description: 'The new application.', schema: APP },
    faults: { 400: `${SETTINGS_FAULT} kind or label missing.`, 403: ADMIN },
    example: { body: { kind: 'signing', label: 'Reporting job' } },
  },
  'GET /{org}/v2/apps/{key}': {
    summary: 'One application',
    tag: 'Applications',
    caller: 'admin',
    answer: { description: 'The application.', schema: APP },
    faults: { 403: ADMIN, 404: NO_APP },
    example: { params: { key: APP_KEY } },
  },
  'PATCH /{org}/v2/apps/{key}': {
    summary: "Change an application's settings",
    description: "enabled:false disables it. The console's own app cannot be disabled or given an expiry.",
    tag: 'Applications',
    caller: 'admin',
    body: { schema: ref('AppSettings') },
    answer: { description: 'The application.', schema: APP },
    faults: {
      400: SETTINGS_FAULT,
      403: ADMIN,
      404: NO_APP,
      409: "conflict.consoleApp: the console's app must stay usable.",
    },
    example: { params: { key: APP_KEY }, body: { authDuration: 3600 } },
  },
  'DELETE /{org}/v2/apps/{key}': {
    summary: 'Delete an application',
    description: 'Every token it issued stops working.',
    tag: 'Applications',
    caller: 'admin',
    answer: { description: 'Deleted.', schema: OK },
    faults: { 403: ADMIN, 404: NO_APP, 409: "conflict.consoleApp: the console's app cannot be deleted." },
  },
  'POST /{org}/v2/apps/{key}/secret': {
    summary: 'Rotate the signing secret',
    description: 'The new secret is answered in full once; requests signed with the old one are refused at once.',
    tag: 'Applications',
    caller: 'admin',
    answer: { description: 'The application with its new secret.', schema: APP },
    faults: { 400: 'invalidArgument.app: only signing applications have a secret.', 403: ADMIN, 404: NO_APP },
  },
  'GET /{org}/v2/apps/{key}/rotation-preview': {
    summary: 'What rotating the secret or the key pair would stop',
    tag: 'Applications',
    caller: 'admin',
    answer: { description: 'The counts.', schema: resultOf({ type: 'object', additionalProperties: true }) },
    faults: { 403: ADMIN, 404: NO_APP },
    example: { params: { key: APP_KEY } },
  },
  'POST /{org}/v2/apps/{key}/rsa': {
    summary: 'Regenerate the key pair',
    description: 'Every token the app issued stops working. The body is optional; alg changes the algorithm.',
    tag: 'Applications',
    caller: 'admin',
    body: {
      schema: { type: 'object', additionalProperties: false, properties: { alg: { enum: ['PS512', 'RS512'] } } },
    },
    answer: { description: 'The application with its new rsa.kid.', schema: APP },
    faults: {
      400: 'validation: a body that is not an object, a member other than alg, an unknown alg.',
      403: ADMIN,
      404: NO_APP,
    },
  },
  'GET /{org}/v2/auth/certs/jwk': {
    summary: 'Public keys (JWK) of applications with Expose Keys',
    description: "For verifiers of the service's tokens. No credentials needed. A rotated key disappears at once.",
    tag: 'Applications',
    caller: 'anyone',
    answer: { description: '{keys: [{kty, n, e, use, alg, kid}]}', schema: PUBLIC_KEYS },
    faults: {},
  },
  'GET /{org}/v2/auth/certs/pem': {
    summary: 'Public keys (PEM) of applications with Expose Keys',
    tag: 'Applications',
    caller: 'anyone',
    answer: { description: '{keys: [{kid, alg, key}]}', schema: PUBLIC_KEYS },
    faults: {},
  },
  'POST /{org}/v2/accounts/{id}/tokens': {
    summary: 'Mint a token for an account',
    description:
      'Org administrators only. The token cannot do more than its minter may (scopes, grant, roles). Permanent and ' +
      'limited-use tokens are stored and revocable; others are ephemeral.',
    tag: 'Tokens',
    caller: 'admin',
    body: { schema: TOKEN_REQUEST },
    answer: { description: 'The signed JWT.', schema: resultOf({ type: 'string', description: 'A JWT.' }) },
    faults: {
      400: 'invalidArgument: the option named by path is missing, unknown, mistyped or out of range; an unknown role.',
      403: 'accessDenied: not an org administrator; the token would exceed what the minter may (scope); the app is disabled.',
      404: 'notFound: no such account (instance) or application (app).',
      409: 'conflict: the account has its maximum of stored tokens for the app.',
    },
    example: { params: { id: 'me' }, body: { app: APP_KEY, scope: ['object.read.account'], expiresIn: 3600 } },
  },
  'GET /{org}/v2/accounts/{id}/tokens': {
    summary: "An account's stored live tokens",
    description: `Permanent and limited-use tokens of one application. ${TOKENS_OF}`,
    tag: 'Tokens',
    caller: 'principal',
    answer: {
      description: 'The tokens.',
      schema: listOf({
        type: 'object',
        properties: {
          jti: { type: 'string' },
          times_authorized: { type: 'integer' },
          last_authorized: { type: ['string', 'null'] },
          uses_remaining: { type: ['integer', 'null'] },
          expires_at: { type: ['string', 'null'] },
        },
      }),
    },
    faults: { 400: 'invalidArgument.app: no app=KEY.', 403: ADMIN, 404: 'notFound: no such account or application.' },
    example: { params: { id: 'me' }, query: TOKEN_APP_QUERY },
  },
  'DELETE /{org}/v2/accounts/{id}/tokens/{jti}': {
    summary: 'Revoke one stored token',
    description: TOKENS_OF,
    tag: 'Tokens',
    caller: 'principal',
    answer: { description: 'Revoked.', schema: OK },
    faults: { 403: ADMIN, 404: 'notFound.instance: the account has no such unrevoked token.' },
  },
  'DELETE /{org}/v2/accounts/{id}/tokens': {
    summary: 'Revoke every stored token of an account for an application',
    description: TOKENS_OF,
    tag: 'Tokens',
    caller: 'principal',
    answer: { description: 'How many were revoked.', schema: resultOf({ type: 'integer' }) },
    faults: { 400: 'invalidArgument.app: no app=KEY.', 403: ADMIN, 404: 'notFound: no such account or application.' },
    example: { params: { id: 'me' }, query: TOKEN_APP_QUERY },
  },
};
