import type { OperationTable } from './operation-doc.js';
import { resultOf } from './components.js';

const OPENAPI_DOCUMENT = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  description: 'An OpenAPI 3.1 document.',
};

/** Service-wide routes: outside any org, no credentials. */
export const SERVICE_OPERATIONS: OperationTable = {
  'GET /_service/health': {
    summary: 'Is the service up',
    tag: 'Service',
    caller: 'setup',
    answer: {
      description: 'The service answers.',
      schema: resultOf({ type: 'object', properties: { ok: { const: true } } }),
    },
    faults: {},
  },
  'GET /_service/info': {
    summary: 'What a client needs to start',
    description:
      "Whether first-run setup is still open, the service's version, the org it was started for, and each org " +
      'with the key of its console application (public: every page load reads it).',
    tag: 'Service',
    caller: 'setup',
    answer: {
      description: 'The facts.',
      schema: resultOf({
        type: 'object',
        properties: {
          setupRequired: { type: 'boolean' },
          version: { type: 'string' },
          defaultOrg: { type: ['string', 'null'] },
          orgs: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                code: { type: 'string' },
                name: { type: 'string' },
                consoleAppKey: { type: ['string', 'null'] },
              },
            },
          },
        },
      }),
    },
    faults: {},
  },
  'POST /_service/setup': {
    summary: 'First-run setup: the first org and its administrator',
    description:
      'Open only while the service has no org; creates the org, its console application and its administrator.',
    tag: 'Service',
    caller: 'setup',
    answer: {
      description: 'The org was created.',
      schema: resultOf({
        type: 'object',
        properties: { org: { type: 'string' }, consoleAppKey: { type: 'string' } },
      }),
    },
    faults: {
      400: 'validation: a field is missing, too long or unknown; the password is too weak.',
      403: 'accessDenied.setupDone: setup has already been done.',
    },
  },
  'GET /_service/openapi.json': {
    summary: 'This description',
    description: "The service's routes as OpenAPI 3.1, generated from the routes' own schemas (docs/API.md).",
    tag: 'Service',
    caller: 'setup',
    answer: { description: 'The OpenAPI document.', schema: OPENAPI_DOCUMENT },
    faults: {},
  },
  'GET /_service/docs': {
    summary: 'The API reference page',
    description:
      'Renders this description offline, with "try it" in the browser session. Comes with the console build.',
    tag: 'Service',
    caller: 'setup',
    answer: { description: 'The page.', contentType: 'text/html', schema: { type: 'string' } },
    faults: { 404: 'notFound.console: the console is not built.' },
  },
  'GET /': {
    summary: 'The console (redirect)',
    tag: 'Service',
    caller: 'setup',
    answer: { status: 302, description: 'To /console/.' },
    faults: {},
  },
  'GET /console/{path}': {
    summary: "The console's files",
    description: 'The built console, served with a strict Content-Security-Policy; source maps are never served.',
    tag: 'Service',
    caller: 'setup',
    answer: { description: 'A file of the console.', contentType: 'text/html', schema: { type: 'string' } },
    faults: { 404: 'notFound: no such file, or the console is not built.' },
  },
  'OPTIONS /{org}/v2/{path}': {
    summary: 'CORS preflight',
    description: "Answered from the application's corsOrigins (the app named by Service-Client-Key).",
    tag: 'Service',
    caller: 'anyone',
    answer: { status: 204, description: 'The preflight answer, with the Access-Control headers the app allows.' },
    faults: {},
  },
};
