import { FAULT_CATEGORIES } from '../../../../src-shared/faults.js';
import {
  ACCOUNT_HEADER,
  CLIENT_KEY_HEADER,
  CSRF_HEADER,
  NONCE_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_VERSION_HEADER,
  TIMESTAMP_HEADER,
} from '../../../../src-shared/contracts/http.js';
import { SESSION_COOKIE } from '../../auth/wire-names.js';
import type { FaultStatus, JsonSchema, Tag } from './operation-doc.js';

/** A reference to one of `SCHEMAS` below. */
export const ref = (name: keyof typeof SCHEMAS): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** `{object:'list', data:[items], hasMore}`, the envelope of every list. */
export const listOf = (items: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['object', 'data', 'hasMore'],
  properties: {
    object: { const: 'list' },
    data: { type: 'array', items },
    hasMore: { type: 'boolean', description: 'More records match beyond this page.' },
  },
});

/** `{object:'result', data}`, the envelope of an answer that is not a record or a list. */
export const resultOf = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['object', 'data'],
  properties: { object: { const: 'result' }, data },
});

const ID = { type: 'string', pattern: '^[0-9a-f]{24}$', description: 'An object id: 24 lower-case hex characters.' };
const DATE = { type: 'string', format: 'date-time' };

const faultStatuses = [...new Set(Object.values(FAULT_CATEGORIES).map((c) => c.status))].sort();
const faultCodes = Object.values(FAULT_CATEGORIES).map((c) => c.code);

/** Schemas the operations share. */
export const SCHEMAS = {
  Fault: {
    type: 'object',
    description:
      'Every error is answered in this shape (docs/API.md, "Faults"). `errCode` is `service.<category>[.<detail>]`; ' +
      '`path` names the offending input; `faults` holds one child per problem of a validation.',
    required: ['object', 'name', 'code', 'errCode', 'status', 'message'],
    properties: {
      object: { const: 'fault' },
      name: { type: 'string', examples: ['error', 'validation'] },
      code: {
        type: 'string',
        description: `The category's code (${faultCodes.join(', ')}) or an own code such as kNotLoggedIn.`,
      },
      errCode: { type: 'string', examples: ['service.invalidArgument.where'] },
      status: { type: 'integer', enum: faultStatuses },
      message: { type: 'string' },
      reason: { type: 'string' },
      path: { type: 'string' },
      faults: { type: 'array', items: { $ref: '#/components/schemas/Fault' } },
      requestId: { type: 'string', description: 'On 5xx answers: the id of the log line that holds the cause.' },
    },
  },
  Reference: {
    type: 'object',
    required: ['_id', 'object'],
    properties: { _id: ID, object: { type: 'string' }, path: { type: 'string', examples: ['/accounts/5f…'] } },
  },
  Record: {
    type: 'object',
    description:
      "A record as its reader may see it: the system properties, then the definition's properties the caller may read " +
      '(GET /schemas/{name} lists them). List properties are answered as list envelopes.',
    required: ['_id', 'object'],
    properties: {
      _id: ID,
      object: { type: 'string', description: 'The object type, e.g. account or c_patientfile.' },
      access: { type: 'integer', description: "The caller's access level on the record (1 public … 8 owner)." },
      created: DATE,
      updated: DATE,
      updater: { $ref: '#/components/schemas/Reference' },
    },
    additionalProperties: true,
  },
  Account: {
    type: 'object',
    required: ['_id', 'object'],
    properties: {
      _id: ID,
      object: { const: 'account' },
      email: { type: 'string', format: 'email' },
      name: { type: 'object', properties: { first: { type: 'string' }, last: { type: 'string' } } },
      state: { type: 'string', examples: ['verified', 'unverified'] },
      locked: { type: 'boolean' },
      roles: { type: 'array', items: ID },
      created: DATE,
      updated: DATE,
    },
    additionalProperties: true,
  },
  App: {
    type: 'object',
    required: ['object', 'key', 'kind', 'label'],
    properties: {
      object: { const: 'app' },
      key: { type: 'string', description: 'The application key clients send as Service-Client-Key.' },
      kind: { enum: ['session', 'signing'] },
      ...appSettingsProperties(),
      hasSecret: { type: 'boolean' },
      secret: {
        type: ['string', 'null'],
        description: 'Masked, except in the answer that creates or rotates it (shown once).',
      },
      rsa: {
        type: ['object', 'null'],
        properties: { kid: { type: 'string' }, alg: { enum: ['PS512', 'RS512'] }, created: DATE },
      },
      created: DATE,
    },
  },
  AppSettings: {
    type: 'object',
    description: 'Settings of an application; each is checked by the service (an unknown name is refused).',
    properties: appSettingsProperties(),
    additionalProperties: false,
  },
  PropertyDefinition: {
    type: 'object',
    required: ['name', 'type'],
    properties: {
      name: { type: 'string', pattern: '^c_[a-z0-9_]{1,60}$', description: 'Custom properties start with c_.' },
      type: {
        enum: ['String', 'Number', 'Integer', 'Boolean', 'Date', 'ObjectId', 'Reference', 'Document', 'List'],
      },
      label: { type: 'string' },
      array: { type: 'boolean' },
      indexed: { type: 'boolean', description: 'May be matched and sorted in list queries.' },
      unique: { type: 'boolean' },
      required: { type: 'boolean' },
      readOnly: { type: 'boolean' },
      enum: { type: 'array', items: { type: 'string' } },
      maxLength: { type: 'integer' },
      format: { enum: ['uuid', 'email'] },
      properties: { type: 'array', items: { $ref: '#/components/schemas/PropertyDefinition' } },
      refObject: { type: 'string', description: 'Reference and List: the object type referenced.' },
    },
  },
  Schema: {
    type: 'object',
    description: 'An object definition and every fully qualified property path it has.',
    required: ['object', 'name', 'collection', 'properties', 'paths'],
    properties: {
      object: { const: 'schema' },
      name: { type: 'string' },
      collection: { type: 'string' },
      label: { type: 'string' },
      custom: { type: 'boolean' },
      defaultAcl: { type: 'array', items: { type: 'object' } },
      createAcl: { type: 'array', items: { type: 'object' } },
      properties: { type: 'array', items: { $ref: '#/components/schemas/PropertyDefinition' } },
      paths: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            path: { type: 'string' },
            type: { type: 'string' },
            array: { type: 'boolean' },
            indexed: { type: 'boolean' },
            unique: { type: 'boolean' },
            readOnly: { type: 'boolean' },
            refObject: { type: 'string' },
          },
        },
      },
    },
  },
  Ok: resultOf({ const: true }),
} as const satisfies Record<string, JsonSchema>;

function appSettingsProperties() {
  return {
    label: { type: 'string', minLength: 1, maxLength: 100 },
    enabled: { type: 'boolean' },
    readOnly: { type: 'boolean', description: 'Only reads (and login/logout) are allowed through the app.' },
    expires: { type: ['string', 'null'], description: 'ISO 8601 date after which the app stops working.' },
    authDuration: {
      type: 'integer',
      minimum: 60,
      maximum: 86400,
      description: 'Seconds: session inactivity timeout and default token lifetime.',
    },
    csrf: { type: 'boolean', description: 'Session writes must carry Service-Csrf-Token.' },
    allowUnsigned: { type: 'boolean' },
    requireSignatureV2: { type: 'boolean' },
    principalOverride: { type: 'boolean', description: `A signed request may name its principal (${ACCOUNT_HEADER}).` },
    principalId: { type: ['string', 'null'] },
    maxTokensPerPrincipal: { type: 'integer' },
    expose: { type: 'boolean', description: 'The public key is listed at /auth/certs/jwk and /pem.' },
    alg: { enum: ['PS512', 'RS512'] },
    corsOrigins: { type: 'array', items: { type: 'string' } },
    ipAllow: { type: 'array', items: { type: 'string' } },
    ipDeny: { type: 'array', items: { type: 'string' } },
    name: {
      type: ['string', 'null'],
      description: 'Unique in the org; with allowNameMapping, clients may send it instead of the key.',
    },
    allowNameMapping: { type: 'boolean', description: 'Service-Client-Key and createAuthToken accept the name.' },
  } as const;
}

export const SECURITY_SCHEMES = {
  appKey: {
    type: 'apiKey',
    in: 'header',
    name: CLIENT_KEY_HEADER,
    description: "The application's key. Session apps log users in; signing apps sign requests.",
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The session cookie set by POST /{org}/v2/accounts/login (HttpOnly; the browser sends it).',
  },
  csrf: {
    type: 'apiKey',
    in: 'header',
    name: CSRF_HEADER,
    description: `Writes in a session carry the token the service sends in the ${CSRF_HEADER} answer header.`,
  },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A token minted by POST /{org}/v2/accounts/{id}/tokens or by a script.',
  },
  signature: {
    type: 'apiKey',
    in: 'header',
    name: SIGNATURE_HEADER,
    description:
      `A signed request (signing apps): ${SIGNATURE_HEADER}, ${TIMESTAMP_HEADER}, ${NONCE_HEADER} and ` +
      `${SIGNATURE_VERSION_HEADER}, with ${CLIENT_KEY_HEADER}; see docs/API.md, "Signed requests".`,
  },
} as const;

/** The reference's sections, in order. */
export const TAGS: readonly { name: Tag; description: string }[] = [
  { name: 'Sessions', description: 'Logging in and out with a session app, registering, the session status.' },
  { name: 'Account', description: "The caller's own account: email verification, password, authenticator app." },
  { name: 'Records', description: 'Records of every collection: list, read, create, change, delete.' },
  { name: 'Driver', description: 'The driver API: one POST per operation, options in the body.' },
  { name: 'Schemas', description: 'Object definitions: their properties and property paths.' },
  { name: 'Views', description: 'Stored queries, run as their principal.' },
  { name: 'Scripts', description: 'The ad-hoc script runner and route scripts.' },
  { name: 'Applications', description: 'API client applications: keys, secrets, key pairs, settings; public keys.' },
  { name: 'Tokens', description: 'JSON Web Tokens of an account: mint, list, revoke.' },
  { name: 'Account administration', description: "Administrators' tools for accounts and the org's live sessions." },
  { name: 'Configuration', description: 'Configuration as files (export, import) and deployments between orgs.' },
  { name: 'Organisation', description: 'Orgs of this service, demo data and the outbox of unsent email.' },
  {
    name: 'Service',
    description: 'Service-wide routes outside any org: health, start-up facts, first-run setup, this description.',
  },
];

/** Faults every route under /{org}/v2 can answer, whatever it does. */
export const ORG_FAULTS: Readonly<Partial<Record<FaultStatus, string>>> = {
  400: 'invalidArgument: the body is not JSON (json), the Content-Type is not JSON (contentType), a request signature is stale.',
  403: 'accessDenied: the Host is not a loopback name (host); the app is disabled or expired, refuses this address or is read-only; a token or signature is not valid; a session write lacks its CSRF token (kCSRFTokenMismatch).',
  404: 'notFound: no org has this code (org), or the Service-Client-Key names no app of the org (app).',
  413: 'tooLarge: the body or the URL is too long.',
  500: 'error: an unexpected failure; the answer carries a requestId found in the service log.',
};

/** Faults every service-wide route can answer. */
export const SERVICE_FAULTS: Readonly<Partial<Record<FaultStatus, string>>> = {
  403: 'accessDenied.host: the Host is not a loopback name.',
  413: 'tooLarge: the body or the URL is too long.',
  500: 'error: an unexpected failure; the answer carries a requestId found in the service log.',
};
