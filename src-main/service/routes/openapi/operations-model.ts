import type { JsonSchema, OperationDoc, OperationTable } from './operation-doc.js';
import { listOf, ref, resultOf } from './components.js';
import { LIST_ARGUMENTS } from './list-arguments.js';
import { CONFIG_SECTIONS } from '../../../../src-shared/contracts/environment.js';

const SCHEMA = ref('Schema');
const OK = ref('Ok');
const NDJSON = 'application/x-ndjson';
const ADMIN = 'accessDenied: the caller is not an org administrator, or its token lacks the admin scope.';
const NO_SCHEMA = 'notFound.object: no definition has this name.';
const SELECTOR = {
  type: 'object',
  properties: {
    includes: { type: 'array', items: { type: 'string' } },
    excludes: { type: 'array', items: { type: 'string' } },
  },
};

const MANIFEST: JsonSchema = {
  type: 'object',
  description:
    `Which resources to export: sections ${CONFIG_SECTIONS.join(', ')} (and a custom object type for ` +
    'its records), each selecting names with includes and excludes (a name, * or /regex/flags).',
  properties: Object.fromEntries(
    [...CONFIG_SECTIONS, 'includes', 'excludes'].map((k) => [
      k,
      k === 'includes' || k === 'excludes' ? { type: 'array', items: { type: 'string' } } : SELECTOR,
    ]),
  ),
  additionalProperties: SELECTOR,
};

const RUNNER_BODY: JsonSchema = {
  type: 'object',
  required: ['script'],
  additionalProperties: false,
  properties: {
    script: { type: 'string', minLength: 1, description: 'The source (JavaScript).' },
    language: { const: 'javascript' },
    specification: { type: 'string' },
    optimize: { type: 'boolean' },
    arguments: { description: 'What the script reads as script.arguments.' },
    body: { description: "What require('request').body shows the script." },
  },
};

export const SCRIPT_ANSWER = {
  description:
    'What the script returned: a primitive as {object:"result", data}, an array as a list, an object as it is; ' +
    "console output as logs. The Service-Sandbox-Stats header carries the run's CPU and memory; " +
    'Service-Script-Log the _id of its log entry (GET /logs/<_id> has its console output whatever it returned).',
  schema: {},
} as const;

export const SCRIPT_FAULTS = {
  400: 'invalidArgument: the body or a runner option is not valid; a script fault thrown by the script (its trace attached).',
  403: 'accessDenied: not an org administrator, or the token lacks script.execute.runner (scope).',
  429: 'throttled: too many scripts are waiting to run.',
  504: 'timeout: the script ran past its time limit.',
} as const;

/** The route scripts of `/routes/*`, one entry per method Fastify registers for `all`. */
function routeScript(method: string): OperationDoc {
  return {
    summary: `Call a route script (${method})`,
    description:
      "The org's active route scripts matching the method and path run by priority; one answers. The body, query and " +
      'headers reach the script as require("request").',
    tag: 'Scripts',
    caller: 'anyone',
    answer: { description: "The script's answer (status, headers and body as it sets them).", schema: {} },
    faults: {
      ...SCRIPT_FAULTS,
      403: "accessDenied: the route's ACL or app does not admit the caller, or the token lacks script.execute.route.",
      404: 'notFound.route: no active route script matches the method and path.',
    },
  };
}
const ROUTE_SCRIPT_METHODS = ['GET', 'HEAD', 'TRACE', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST'];

/** Definitions, scripts, configuration, deployments, orgs and demo data. */
export const MODEL_OPERATIONS: OperationTable = {
  'GET /{org}/v2/schemas': {
    summary: 'List object definitions',
    description: 'A list like any other: where, sort, skip, limit and paths[] over the presented definitions.',
    tag: 'Schemas',
    caller: 'principal',
    query: LIST_ARGUMENTS,
    answer: { description: 'A page of definitions.', schema: listOf(SCHEMA) },
    faults: { 400: 'invalidArgument: a malformed list argument.', 403: 'accessDenied: not logged in.' },
    example: { query: { where: '{"custom":false}', 'paths[]': 'name' } },
  },
  'POST /{org}/v2/schemas': {
    summary: 'Create a custom object definition',
    tag: 'Schemas',
    caller: 'admin',
    body: {
      schema: {
        type: 'object',
        required: ['name'],
        properties: {
          name: {
            type: 'string',
            pattern: '^c_[a-z0-9_]{1,60}$',
            description: 'Singular, starting with c_; the collection adds s.',
          },
          label: { type: 'string' },
          properties: { type: 'array', items: ref('PropertyDefinition') },
          defaultAcl: { type: 'array', items: { type: 'object' } },
          createAcl: { type: 'array', items: { type: 'object' } },
        },
      },
    },
    answer: { description: 'The definition.', schema: SCHEMA },
    faults: {
      400: 'validation: the name or a property is not valid (one child fault each).',
      403: ADMIN,
      409: 'exists.object: the name is taken.',
    },
    example: {
      body: { name: 'c_example', label: 'Example', properties: [{ name: 'c_title', type: 'String', indexed: true }] },
    },
  },
  'GET /{org}/v2/schemas/{name}': {
    summary: 'One object definition',
    tag: 'Schemas',
    caller: 'principal',
    answer: { description: 'The definition.', schema: SCHEMA },
    faults: { 403: 'accessDenied: not logged in.', 404: NO_SCHEMA },
    example: { params: { name: 'account' } },
  },
  'PATCH /{org}/v2/schemas/{name}': {
    summary: 'Change a definition',
    description: 'Its label, and the label, indexed and unique flags of its custom properties.',
    tag: 'Schemas',
    caller: 'admin',
    answer: { description: 'The definition.', schema: SCHEMA },
    faults: { 400: 'validation: an unknown property, or unique while duplicates exist.', 403: ADMIN, 404: NO_SCHEMA },
    example: { params: { name: 'c_example' }, body: { label: 'Examples' } },
  },
  'DELETE /{org}/v2/schemas/{name}': {
    summary: 'Delete a custom definition and its records',
    tag: 'Schemas',
    caller: 'admin',
    answer: { description: 'Deleted.', schema: OK },
    faults: { 403: `${ADMIN} Built-in definitions cannot be deleted.`, 404: NO_SCHEMA },
  },
  'POST /{org}/v2/schemas/{name}/properties': {
    summary: 'Add a property to a definition',
    tag: 'Schemas',
    caller: 'admin',
    body: { schema: ref('PropertyDefinition') },
    answer: { description: 'The definition.', schema: SCHEMA },
    faults: { 400: 'validation: the property is not valid, or its name is taken.', 403: ADMIN, 404: NO_SCHEMA },
    example: { params: { name: 'c_example' }, body: { name: 'c_count', type: 'Integer' } },
  },
  'POST /{org}/v2/sys/script_runner': {
    summary: 'Run a script',
    description: 'Org administrators run a script ad hoc in the sandbox, as themselves.',
    tag: 'Scripts',
    caller: 'admin',
    body: { schema: RUNNER_BODY },
    answer: SCRIPT_ANSWER,
    faults: SCRIPT_FAULTS,
    example: { body: { script: 'return 6 * 7' } },
  },
  ...Object.fromEntries(ROUTE_SCRIPT_METHODS.map((m) => [`${m} /{org}/v2/routes/{path}`, routeScript(m)])),
  'POST /{org}/v2/developer/environment/export': {
    summary: 'Export configuration',
    description: 'NDJSON: the resources the manifest selects, then the manifest, its dependencies and exports.',
    tag: 'Configuration',
    caller: 'admin',
    body: { schema: { type: 'object', properties: { manifest: MANIFEST } } },
    answer: { description: 'One resource per line.', contentType: NDJSON, schema: { type: 'string' } },
    faults: { 400: 'invalidArgument.manifest: the manifest is not valid.', 403: ADMIN },
    example: { body: { manifest: { objects: { includes: ['*'] }, roles: { includes: ['*'] } } } },
  },
  'POST /{org}/v2/developer/environment/import': {
    summary: 'Import configuration',
    description:
      'An export as the body (NDJSON, gzip allowed), applied in one transaction; the log streams back as NDJSON. ' +
      '?dryRun=true checks and reports without writing; ?backup=true copies the database first.',
    tag: 'Configuration',
    caller: 'admin',
    body: { schema: { type: 'string' }, contentType: NDJSON, description: 'The export (application/gzip also taken).' },
    query: [
      {
        name: 'dryRun',
        description: 'true: validate and report, write nothing.',
        schema: { enum: ['true', 'false', '1', '0', ''] },
      },
      {
        name: 'backup',
        description: 'true: keep a copy of the database first.',
        schema: { enum: ['true', 'false', '1', '0', ''] },
      },
      {
        name: 'triggers',
        description: "true: run the imported records' triggers (mdctl's env import --triggers); none run without it.",
        schema: { enum: ['true', 'false', '1', '0', ''] },
      },
    ],
    answer: {
      description: 'The import log, ending with stage complete.',
      contentType: NDJSON,
      schema: { type: 'string' },
    },
    faults: {
      400: 'invalidArgument: not an NDJSON body, a bad flag; validation: one child fault per refused resource.',
      403: ADMIN,
      409: 'conflict: another import or deployment holds the org.',
      413: 'tooLarge: the export is larger than the import limit.',
    },
  },
  'POST /{org}/v2/deployments/{id}/run': {
    summary: 'Run a deployment',
    description: 'Copies configuration from the source org as the deployment selects; with dryRun, only the diff.',
    tag: 'Configuration',
    caller: 'admin',
    body: { schema: { type: 'object', properties: { dryRun: { type: 'boolean' }, triggers: { type: 'boolean' } } } },
    answer: {
      description: 'The run: its diff per resource and its result.',
      schema: { type: 'object', additionalProperties: true },
    },
    faults: {
      400: 'invalidArgument: the body is not an object, dryRun or triggers is not a boolean; the deployment is not valid.',
      403: `${ADMIN} Another org or data folder is reached only with a credential it issued.`,
      404: 'notFound: no such deployment, or its source org or folder is gone.',
      409: 'conflict: another import or deployment holds the org.',
    },
  },
  'GET /{org}/v2/deployments/{id}/runs': {
    summary: "A deployment's run log",
    tag: 'Configuration',
    caller: 'admin',
    answer: { description: 'Runs, newest first.', schema: listOf({ type: 'object', additionalProperties: true }) },
    faults: { 403: ADMIN, 404: 'notFound.deployment: no such deployment.' },
  },
  'GET /{org}/v2/developer/deployment-runs': {
    summary: "Other orgs' deployment runs that reached this org",
    description:
      "Runs of other orgs' deployments that read or wrote this org with a credential it issued, newest first; each " +
      'says which org and deployment it came from, who ran it there and with which credential.',
    tag: 'Configuration',
    caller: 'admin',
    answer: { description: 'Runs, newest first.', schema: listOf({ type: 'object', additionalProperties: true }) },
    faults: { 403: ADMIN },
  },
  'GET /{org}/v2/developer/orgs': {
    summary: 'Orgs of this service',
    description:
      "Every org for the operator (the administrators of the service's first org); the caller's own org for others.",
    tag: 'Organisation',
    caller: 'admin',
    answer: {
      description: 'Every org.',
      schema: listOf({
        type: 'object',
        properties: {
          object: { const: 'org' },
          code: { type: 'string' },
          name: { type: 'string' },
          created: { type: 'string' },
        },
      }),
    },
    faults: { 403: ADMIN },
  },
  'POST /{org}/v2/developer/orgs': {
    summary: 'Create an org',
    description: "The operator only (the administrators of the service's first org).",
    tag: 'Organisation',
    caller: 'admin',
    body: {
      schema: {
        type: 'object',
        required: ['code', 'adminEmail', 'adminPassword'],
        properties: {
          code: { type: 'string', pattern: '^[a-z0-9-]+$' },
          name: { type: 'string' },
          adminEmail: { type: 'string', format: 'email' },
          adminPassword: { type: 'string' },
        },
      },
    },
    answer: {
      description: 'The org and its console app key.',
      schema: resultOf({ type: 'object', additionalProperties: true }),
    },
    faults: {
      400: 'invalidArgument.org: a bad code, email or password.',
      403: ADMIN,
      409: 'exists.org: the code is taken.',
    },
  },
  'POST /{org}/v2/demo-data/jobs': {
    summary: 'Start seeding demo records',
    tag: 'Organisation',
    caller: 'admin',
    answer: { description: 'The job.', schema: resultOf({ type: 'object', additionalProperties: true }) },
    faults: {
      400: 'validation: accounts missing or out of range.',
      403: ADMIN,
      409: 'conflict.job: a job is already running.',
    },
  },
  'GET /{org}/v2/demo-data/jobs/{id}': {
    summary: 'A demo-data job and its progress',
    tag: 'Organisation',
    caller: 'admin',
    answer: { description: 'The job.', schema: resultOf({ type: 'object', additionalProperties: true }) },
    faults: { 403: ADMIN, 404: 'notFound.job: no such job.' },
  },
  'DELETE /{org}/v2/demo-data/jobs/{id}': {
    summary: 'Cancel a demo-data job',
    tag: 'Organisation',
    caller: 'admin',
    answer: { description: 'The job, cancelling.', schema: resultOf({ type: 'object', additionalProperties: true }) },
    faults: { 403: ADMIN, 404: 'notFound.job: no such job.' },
  },
};
