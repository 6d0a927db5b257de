import type { CallerKind, JsonSchema, OperationDoc, OperationTable } from './operation-doc.js';
import { ORG_FAULTS, SERVICE_FAULTS } from './components.js';

/** The parts of a generated OpenAPI document this module reads and writes (3.1; loosely typed). */
export interface Document {
  paths?: Record<string, PathItem>;
  [key: string]: unknown;
}
type PathItem = Record<string, Operation | unknown>;
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema; example?: unknown }> };
  responses?: Record<string, unknown>;
  [key: string]: unknown;
}
interface Parameter {
  name: string;
  in: string;
  description?: string;
  example?: unknown;
  schema?: JsonSchema;
  required?: boolean;
}

/** Operation methods of OpenAPI 3.1's Path Item; `query` (a Fastify `all` method) is 3.2's. */
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** What path parameters mean, by name (they are named alike across routes). */
const PATH_PARAMETERS: Readonly<Record<string, string>> = {
  org: 'The org code, e.g. demo.',
  collection: 'A collection name, e.g. accounts or c_patientfiles.',
  id: 'An _id (24 lower-case hex characters); `me` where the route says so.',
  path: 'A property path below the record, segments separated by /, e.g. c_tags or name/first.',
  name: 'A name or an _id.',
  key: 'An application key.',
  jti: "A token's jti claim.",
  object: 'The object type or collection, e.g. account or accounts.',
  operation:
    'The driver operation: cursor, count, readOne, insertOne, insertMany, updateOne, updateMany, patchOne, patchMany, deleteOne, deleteMany or bulk.',
};

/**
 * Completes the document @fastify/swagger generated from the routes' schemas with the operation
 * tables: summaries, tags, credentials, documented bodies and query arguments, answers, faults and
 * examples. An operation without an entry is marked `x-undocumented` (description.test.ts fails
 * on one).
 */
export function completeDocument(document: Document, operations: OperationTable): Document {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of Object.keys(item)) {
      if (!METHODS.has(method)) {
        delete item[method];
        continue;
      }
      // A route of several methods (`all`) shares one generated object between them: each gets its own.
      const operation = structuredClone(item[method]) as Operation;
      item[method] = operation;
      const key = `${method.toUpperCase()} ${path}`;
      const doc = operations[key];
      if (doc === undefined) {
        operation['x-undocumented'] = true;
        continue;
      }
      describeOperation(operation, doc, { method, path });
    }
  }
  return document;
}

function describeOperation(operation: Operation, doc: OperationDoc, where: { method: string; path: string }): void {
  const service = !where.path.startsWith('/{org}/');
  operation.summary = doc.summary;
  if (doc.description !== undefined) operation.description = doc.description;
  operation.tags = [doc.tag];
  operation.operationId = operationId(where.method, where.path);
  operation.security = securityOf(doc.caller, where.method);
  operation.parameters = parametersOf(operation.parameters ?? [], doc);
  if (operation.parameters.length === 0) delete operation.parameters;
  if (doc.body !== undefined) {
    operation.requestBody = {
      required: false,
      ...(doc.body.description !== undefined ? { description: doc.body.description } : {}),
      content: { [doc.body.contentType ?? 'application/json']: { schema: doc.body.schema } },
    };
  }
  const body = operation.requestBody;
  if (body && doc.example?.body !== undefined) {
    for (const media of Object.values(body.content)) media.example = doc.example.body;
  }
  operation.responses = {
    ...answerOf(doc),
    ...faultsOf({ ...(service ? SERVICE_FAULTS : ORG_FAULTS), ...doc.faults }),
  };
}

function parametersOf(generated: readonly Parameter[], doc: OperationDoc): Parameter[] {
  const out = generated.map((p) => {
    const described: Parameter = { ...p };
    if (p.in === 'path') described.description ??= PATH_PARAMETERS[p.name] ?? p.name;
    if (p.in === 'path' && p.name === 'org') described.example = 'demo';
    const example = p.in === 'path' ? doc.example?.params?.[p.name] : doc.example?.query?.[p.name];
    if (example !== undefined) described.example = example;
    return described;
  });
  for (const q of doc.query ?? []) {
    if (out.some((p) => p.in === 'query' && p.name === q.name)) continue;
    const example = doc.example?.query?.[q.name];
    out.push({
      name: q.name,
      in: 'query',
      description: q.description,
      schema: q.schema,
      ...(example !== undefined ? { example } : {}),
    });
  }
  return out;
}

function answerOf(doc: OperationDoc): Record<string, unknown> {
  const { answer } = doc;
  const content: Record<string, { schema: JsonSchema }> = {};
  if (answer.schema !== undefined) content[answer.contentType ?? 'application/json'] = { schema: answer.schema };
  for (const [type, schema] of Object.entries(answer.alternatives ?? {})) content[type] = { schema };
  return {
    [String(answer.status ?? 200)]: {
      description: answer.description,
      ...(Object.keys(content).length > 0 ? { content } : {}),
    },
  };
}

function faultsOf(faults: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const status of Object.keys(faults).sort()) {
    out[status] = {
      description: faults[status],
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Fault' } } },
    };
  }
  return out;
}

/** Which credentials an operation takes; a session write also needs its CSRF token. */
function securityOf(caller: CallerKind, method: string): Record<string, string[]>[] {
  const write = method !== 'get' && method !== 'head' && method !== 'options';
  const session: Record<string, string[]> = write ? { appKey: [], session: [], csrf: [] } : { appKey: [], session: [] };
  switch (caller) {
    case 'setup':
      return [];
    case 'anyone':
      return [{ appKey: [] }, {}];
    case 'session':
      return [session];
    case 'principal':
    case 'admin':
      return [session, { bearer: [] }, { appKey: [], signature: [] }];
  }
}

/** `POST /{org}/v2/accounts/{id}/tokens` → `postAccountsIdTokens`: stable, readable, unique per operation. */
export function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/\{org\}\/v2/, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '');
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}
