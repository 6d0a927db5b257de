import type { JsonSchema, OperationDoc, OperationTable } from './operation-doc.js';
import { listOf, ref, resultOf } from './components.js';
import { LIST_ARGUMENTS, PAGE_ARGUMENTS, PATHS_ARGUMENT } from './list-arguments.js';

const RECORD = ref('Record');
const OK = ref('Ok');
const NDJSON = 'application/x-ndjson';
/** An existing record in the examples' org (examples.test.ts creates it). */
const RECORD_ID = '<record id>';

const READ_FAULTS = {
  400: 'invalidArgument: a list argument is malformed, names an unindexed or unknown property, or is out of range (the path names it).',
  403: "accessDenied: not logged in, or the token's scopes do not cover the read (scope).",
  404: 'notFound: no such collection (object), or no such record the caller may read (instance).',
} as const;

const WRITE_FAULTS = {
  400: 'validation: one child fault per property that is unknown, read-only, mistyped or out of range; invalidArgument: a malformed body.',
  403: "accessDenied: the caller's level or the token's scopes do not allow the write; the app is read-only.",
  404: 'notFound: no such collection, or no such record the caller may read.',
  409: 'exists: a unique property already has this value.',
  413: 'tooLarge: the body is too large, or it has too many operations or array entries.',
} as const;

const RECORD_BODY: JsonSchema = {
  type: 'object',
  additionalProperties: true,
  description: "The properties to set, as the collection's definition declares them (GET /schemas/{name}).",
};

const PATCH_OPERATION: JsonSchema = {
  type: 'object',
  required: ['op'],
  properties: {
    op: { enum: ['set', 'push', 'remove', 'pull', 'unset'] },
    path: { type: 'string', description: "A dotted property path, below the route's own path." },
    value: { description: 'The value to set, push or remove (an array pushes or removes each).' },
  },
};

const PATCH_BODY: JsonSchema = {
  description: 'An array of operations, or an object whose members are set (a merge).',
  oneOf: [
    { type: 'array', maxItems: 1000, items: PATCH_OPERATION },
    { type: 'object', additionalProperties: true },
  ],
};

const ANSWER_RECORD = { description: 'The record as the caller may now read it.', schema: RECORD } as const;

/** The sub-path routes (PATCH, PUT, POST, DELETE below a record: docs/compatibility.md#patch-and-put). */
function subPath(
  method: string,
  summary: string,
  body: JsonSchema | undefined,
  answer: OperationDoc['answer'],
): OperationDoc {
  return {
    summary,
    description: `${method} below a record, at the property path {path}: one write, checked like a PATCH of the record.`,
    tag: 'Records',
    caller: 'principal',
    ...(body ? { body: { schema: body } } : {}),
    answer,
    faults: WRITE_FAULTS,
  };
}

const DRIVER_OPTIONS: JsonSchema = {
  type: 'object',
  additionalProperties: true,
  description:
    'The options of the operation (docs/API.md, "Driver"): where, sort, skip, limit, paths, expand, include for reads; ' +
    'pipeline (or group with where and sort) for cursor, as aggregate() sends it; document or ' +
    'documents for inserts; match (an _id or a where object) with update ($set, $push, $pull, $unset) or ops for ' +
    'writes; ops for bulk; dryRun. nativePipeline is refused; unindexed is honoured only for callers who may skip the ACL.',
  properties: {
    where: { type: 'object' },
    sort: { type: 'object' },
    skip: { type: 'integer' },
    limit: { type: 'integer' },
    paths: { type: 'array', items: { type: 'string' } },
    expand: { type: ['array', 'string'], items: { type: 'string' } },
    include: { type: ['array', 'string'], items: { type: 'string' } },
    pipeline: { type: 'array', items: { type: 'object' } },
    group: { type: ['object', 'string'] },
    unindexed: { type: 'boolean' },
    document: { type: 'object' },
    documents: { type: 'array', items: { type: 'object' } },
    match: { type: ['string', 'object'] },
    update: { type: 'object' },
    ops: { type: 'array', items: { type: 'object' } },
    dryRun: { type: 'boolean' },
  },
};

/** Records of every collection, the driver API and views. */
export const RECORD_OPERATIONS: OperationTable = {
  'GET /{org}/v2/{collection}': {
    summary: 'List records',
    description:
      'A page of the records the caller may read, filtered and sorted by indexed properties (docs/query-semantics.md). ' +
      'With pipeline or group, a page of the aggregation over them instead. ' +
      'List properties of each record take the same arguments prefixed with their name (connections.limit).',
    tag: 'Records',
    caller: 'principal',
    query: LIST_ARGUMENTS,
    answer: { description: "A page (of records, or of the aggregation's documents).", schema: listOf(RECORD) },
    faults: READ_FAULTS,
    example: { params: { collection: 'accounts' }, query: { where: '{"email":"admin@example.test"}', limit: '10' } },
  },
  'POST /{org}/v2/{collection}': {
    summary: 'Create a record',
    tag: 'Records',
    caller: 'principal',
    body: { schema: RECORD_BODY },
    answer: ANSWER_RECORD,
    faults: WRITE_FAULTS,
    example: { params: { collection: 'roles' }, body: { name: 'Auditor', code: 'auditor' } },
  },
  'GET /{org}/v2/{collection}/{id}': {
    summary: 'Read a record',
    tag: 'Records',
    caller: 'principal',
    query: PATHS_ARGUMENT,
    answer: { description: 'The record.', schema: RECORD },
    faults: READ_FAULTS,
    example: { params: { collection: 'roles', id: RECORD_ID } },
  },
  'PATCH /{org}/v2/{collection}/{id}': {
    summary: 'Change a record',
    description: 'Operations (set, push, remove, pull, unset) or a merge object, applied in one write.',
    tag: 'Records',
    caller: 'principal',
    body: { schema: PATCH_BODY },
    answer: ANSWER_RECORD,
    faults: WRITE_FAULTS,
    example: { params: { collection: 'roles', id: RECORD_ID }, body: [{ op: 'set', path: 'name', value: 'Auditors' }] },
  },
  'PUT /{org}/v2/{collection}/{id}': {
    summary: 'Set properties of a record',
    description: 'The members given are set; the others are left as they are.',
    tag: 'Records',
    caller: 'principal',
    body: { schema: RECORD_BODY },
    answer: ANSWER_RECORD,
    faults: WRITE_FAULTS,
    example: { params: { collection: 'roles', id: RECORD_ID }, body: { name: 'Auditors' } },
  },
  'DELETE /{org}/v2/{collection}/{id}': {
    summary: 'Delete a record',
    tag: 'Records',
    caller: 'principal',
    answer: { description: 'Deleted.', schema: OK },
    faults: WRITE_FAULTS,
  },
  'GET /{org}/v2/{collection}/{id}/{path}': {
    summary: 'Read below a record',
    description: 'A property of a record, or a list property as a list envelope taking the list arguments.',
    tag: 'Records',
    caller: 'principal',
    query: LIST_ARGUMENTS,
    answer: { description: 'The value at the path, or a page of a list property.', schema: {} },
    faults: READ_FAULTS,
    example: { params: { collection: 'roles', id: RECORD_ID, path: 'name' } },
  },
  'PATCH /{org}/v2/{collection}/{id}/{path}': subPath('PATCH', 'Change below a record', PATCH_BODY, ANSWER_RECORD),
  'PUT /{org}/v2/{collection}/{id}/{path}': subPath('PUT', 'Set a value below a record', {}, ANSWER_RECORD),
  'POST /{org}/v2/{collection}/{id}/{path}': subPath('POST', 'Push values below a record', {}, ANSWER_RECORD),
  'DELETE /{org}/v2/{collection}/{id}/{path}': subPath('DELETE', 'Remove a value below a record', undefined, {
    description: 'Removed.',
    schema: OK,
  }),
  'POST /{org}/v2/{object}/db/{operation}': {
    summary: 'Run a driver operation',
    description:
      'One of twelve operations on a collection, options in the body. cursor and bulk stream one JSON line per item ' +
      'with Accept: application/x-ndjson (a fault after the first line is the last line).',
    tag: 'Driver',
    caller: 'principal',
    body: { schema: DRIVER_OPTIONS },
    answer: {
      description:
        'A list envelope (cursor, insertMany, bulk), a record (readOne, insertOne, the *One writes) or a result.',
      schema: { oneOf: [listOf({}), RECORD, resultOf({})] },
      alternatives: { [NDJSON]: { type: 'string', description: 'One JSON document per line.' } },
    },
    faults: {
      ...WRITE_FAULTS,
      400: 'invalidArgument: an unknown operation (operation), an option the operation does not take, a malformed where or update.',
    },
    example: { params: { object: 'accounts', operation: 'count' }, body: { where: { email: 'admin@example.test' } } },
  },
  'GET /{org}/v2/views/{name}': {
    summary: 'Run a view',
    description:
      "Runs a stored query as the view's principal. The view's variables are query arguments of their own " +
      "names; one left out takes the view's declared defaultValue (the view record's variables: [{name, defaultValue, " +
      'description}]). skip, limit and paths[] narrow it within its limits. Accept: application/x-ndjson gives one ' +
      'record per line.',
    tag: 'Views',
    caller: 'principal',
    query: [...PAGE_ARGUMENTS, ...PATHS_ARGUMENT],
    answer: {
      description: 'A page.',
      schema: listOf(RECORD),
      alternatives: { [NDJSON]: { type: 'string', description: 'One record per line.' } },
    },
    faults: {
      400: "invalidArgument: a variable without a default is missing, or not of its type; skip or limit out of the view's range.",
      403: 'accessDenied: the view is not active, its ACL does not admit the caller, or the token lacks view.execute (scope).',
      404: 'notFound.view: no view has this name or _id.',
    },
  },
};
