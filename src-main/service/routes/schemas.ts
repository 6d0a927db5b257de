import { fault } from '../../../src-shared/faults.js';
import { propertyPaths, type ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import { auditRequest } from '../http/audit.js';
import type { Org } from '../orgs/orgs.js';
import { requirePrincipal } from '../http/context.js';
import { checkAclInput, createAcl, defaultAcl, type AclFields } from '../access/levels.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import { ANY_BODY, ANY_QUERY, isRecord, pathParams, type FromSchema, type TypedServer } from '../http/route-schemas.js';
import { addProperty, checkNewObject, checkPropertyChange, checkPropertyDef } from '../objects/definition-rules.js';
import type { FaultBody } from '../../../src-shared/faults.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { runListQuery } from '../../../src-shared/query/evaluate.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import { assertPlainListArgs, rawListArgs } from '../records/list-args.js';
import { objectDef } from '../records/object-def.js';

/** The API form of a definition: its properties and every fully qualified property path. */
export function presentSchema(def: ObjectDef) {
  return {
    object: 'schema',
    name: def.name,
    collection: def.collection,
    label: def.label,
    custom: def.custom,
    // The ACLs in force: the definition's own, or the built-in fallback (access/levels.ts).
    defaultAcl: defaultAcl(def),
    createAcl: createAcl(def),
    properties: def.properties,
    paths: propertyPaths(def).map((p) => ({
      path: p.path,
      type: p.def.type,
      array: p.inArray,
      indexed: p.def.indexed === true || p.def.unique === true,
      unique: p.def.unique === true,
      readOnly: p.def.readOnly === true,
      ...(p.def.refObject ? { refObject: p.def.refObject } : {}),
    })),
  };
}

/**
 * The presented schema as a definition, so `GET /schemas` parses its list arguments like any list:
 * scalar members can be matched and sorted, the rest projected.
 */
const SCHEMA_LIST_DEF: ObjectDef = {
  name: 'schema',
  collection: 'schemas',
  label: 'Schema',
  custom: false,
  properties: [
    { name: 'name', type: 'String', indexed: true },
    { name: 'collection', type: 'String', indexed: true },
    { name: 'label', type: 'String', indexed: true },
    { name: 'custom', type: 'Boolean', indexed: true },
    { name: 'properties', type: 'Document', array: true, properties: [{ name: 'name', type: 'String' }] },
    {
      name: 'paths',
      type: 'Document',
      array: true,
      properties: [
        { name: 'path', type: 'String', indexed: true },
        { name: 'type', type: 'String', indexed: true },
      ],
    },
    { name: 'defaultAcl', type: 'Document', array: true, properties: [{ name: 'type', type: 'String' }] },
    { name: 'createAcl', type: 'Document', array: true, properties: [{ name: 'type', type: 'String' }] },
  ],
};

/** The body of `PATCH /schemas/:name`: the label, ACLs, and custom properties' flags. */
const definitionPatch = {
  type: 'object',
  additionalProperties: false,
  properties: {
    label: { type: 'string', minLength: 1, maxLength: 200 },
    defaultAcl: { type: 'array' },
    createAcl: { type: 'array' },
    properties: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          label: { type: 'string', maxLength: 200 },
          indexed: { type: 'boolean' },
          unique: { type: 'boolean' },
        },
      },
    },
  },
} as const;
type DefinitionPatch = FromSchema<typeof definitionPatch>;

const named = pathParams('name');

/**
 * The `defaultAcl` and `createAcl` of a schema body, checked (each problem a child fault); only
 * those the body gives. Enforced by access/acl.ts and access/objects.ts `canCreate`.
 */
function checkAcls(svc: Service, org: Org, body: unknown, objectName?: string): AclFields {
  const input = isRecord(body) ? body : {};
  const roleDef = svc.defs.byName(org.id, 'role');
  const roleExists = (id: string) => roleDef !== undefined && svc.store.get(org.id, roleDef, id) !== undefined;
  const faults: FaultBody[] = [];
  const out: AclFields = {};
  for (const key of ['defaultAcl', 'createAcl'] as const) {
    if (input[key] !== undefined) out[key] = checkAclInput(input[key], key, roleExists, faults, objectName);
  }
  if (faults.length > 0)
    throw fault('validation', undefined, { faults, reason: 'The access control list is not valid.' });
  return out;
}

/** `/schemas`: read for any logged-in caller; define custom objects and properties for admins. */
export function schemaRoutes(svc: Service) {
  const find = (org: Org, name: string): ObjectDef => objectDef(svc, org, name);

  /**
   * A read-modify-write of an org's definitions, atomic across processes (issue #13 item 11): under
   * the write lock, from the stored definitions rather than a cache another process (the admin CLI,
   * a second service) may have made stale, so two racing changes never lose one.
   */
  const changeDefinitions = <T>(org: Org, change: () => T): T =>
    svc.db
      .transaction(() => {
        svc.defs.forget(org.id);
        return change();
      })
      .immediate();

  /** A PATCH /schemas body applied to a copy of the definition: label, ACLs, custom properties' flags. */
  const alterDefinition = (org: Org, def: ObjectDef, body: DefinitionPatch): ObjectDef => {
    if (body.label) def.label = body.label;
    Object.assign(def, checkAcls(svc, org, body, def.name));
    for (const [name, change] of Object.entries(body.properties ?? {})) {
      const prop = def.properties.find((p) => p.name === name);
      if (!prop) throw fault('notFound', 'property', { path: name, reason: `${def.name} has no property ${name}.` });
      checkPropertyChange(prop, { ...prop, ...change });
      if (change.label !== undefined) prop.label = change.label;
      if (change.indexed !== undefined) prop.indexed = change.indexed;
      if (change.unique !== undefined) prop.unique = change.unique;
      if (prop.unique) prop.indexed = true;
    }
    return def;
  };

  return async (server: TypedServer) => {
    // A list like every other (docs/query-semantics.md "All list endpoints accept the query
    // arguments"): where, sort, skip, limit and paths[] over the presented schemas, in memory (an
    // org has few definitions), with the same parser, limits and faults as record lists.
    server.get('/schemas', { schema: { querystring: ANY_QUERY } }, async (request) => {
      requirePrincipal(request);
      assertPlainListArgs(request.query, 'GET /schemas');
      const query = parseListQuery(rawListArgs(request.query, ''), SCHEMA_LIST_DEF);
      const all = svc.defs.all(request.ctx.org.id).map(presentSchema) as unknown as Record<string, unknown>[];
      const { data, hasMore } = runListQuery(all, query);
      return { object: 'list', data: query.paths ? data.map((d) => projectPaths(d, query.paths!)) : data, hasMore };
    });

    server.get('/schemas/:name', { schema: { params: named } }, async (request) => {
      requirePrincipal(request);
      return presentSchema(find(request.ctx.org, request.params.name));
    });

    server.post('/schemas', { ...ADMIN_ONLY, schema: { body: ANY_BODY } }, async (request) => {
      const { org } = request.ctx;
      const def: ObjectDef = { ...checkNewObject(request.body), ...checkAcls(svc, org, request.body) };
      changeDefinitions(org, () => {
        if (svc.defs.byName(org.id, def.name)) {
          throw fault('exists', 'object', { reason: `${def.name} already exists.` });
        }
        svc.defs.save(org.id, def);
        svc.store.ensureCollection(org.id, def);
      });
      auditRequest(svc, request, {
        cat: 'object',
        sub: 'create',
        target: { object: 'object', _id: def.name, label: def.label },
        summary: `Created object ${def.name} with ${def.properties.length} properties.`,
        changes: def.properties.map((p) => p.name),
      });
      return presentSchema(def);
    });

    server.post(
      '/schemas/:name/properties',
      { ...ADMIN_ONLY, schema: { params: named, body: ANY_BODY } },
      async (request) => {
        const { org } = request.ctx;
        const faults: FaultBody[] = [];
        const prop = checkPropertyDef(request.body, 'property', 0, faults);
        if (!prop) throw fault('validation', undefined, { faults, reason: 'The property is not valid.' });
        const def = changeDefinitions(org, () => {
          const next = addProperty(find(org, request.params.name), prop);
          svc.defs.save(org.id, next);
          svc.store.ensureCollection(org.id, next); // builds the new property's index
          return next;
        });
        auditRequest(svc, request, {
          cat: 'object',
          sub: 'addProperty',
          target: { object: 'object', _id: def.name, label: def.label },
          summary: `Added property ${prop.name} (${prop.type}) to object ${def.name}.`,
          changes: [prop.name],
        });
        return presentSchema(def);
      },
    );

    /** Alter a definition: its label, and the label/indexed/unique flags of its custom properties. */
    server.patch(
      '/schemas/:name',
      { ...ADMIN_ONLY, schema: { params: named, body: definitionPatch } },
      async (request) => {
        const { org } = request.ctx;
        const { body } = request;
        const def = changeDefinitions(org, () => {
          const next = alterDefinition(org, structuredClone(find(org, request.params.name)), body);
          svc.defs.save(org.id, next);
          // Builds indexes for newly indexed properties, drops those of properties no longer so.
          svc.store.applyDefinition(org.id, next);
          return next;
        });
        auditRequest(svc, request, {
          cat: 'object',
          sub: 'update',
          target: { object: 'object', _id: def.name, label: def.label },
          summary: `Changed the definition of object ${def.name}.`,
          changes: Object.keys(body as object),
        });
        return presentSchema(def);
      },
    );

    server.delete('/schemas/:name', { ...ADMIN_ONLY, schema: { params: named } }, async (request) => {
      const { org } = request.ctx;
      changeDefinitions(org, () => {
        const def = find(org, request.params.name);
        if (!def.custom) throw fault('accessDenied', 'object', { reason: 'Built-in objects cannot be deleted.' });
        svc.defs.remove(org.id, def.name);
        svc.store.dropCollection(org.id, def);
      });
      auditRequest(svc, request, {
        cat: 'object',
        sub: 'delete',
        target: { object: 'object', _id: request.params.name },
        summary: `Deleted object ${request.params.name} and its records.`,
      });
      return { object: 'result', data: true };
    });
  };
}
