import type { FastifyInstance } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import { propertyPaths, type ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { requirePrincipal } from '../http/context.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import { addProperty, checkNewObject, checkPropertyDef } from '../objects/definition-rules.js';
import type { FaultBody } from '../../../src-shared/faults.js';

/** The API form of a definition: its properties and every fully qualified property path. */
export function presentSchema(def: ObjectDef) {
  return {
    object: 'schema',
    name: def.name,
    collection: def.collection,
    label: def.label,
    custom: def.custom,
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

/** The body of `PATCH /schemas/:name`, as its schema below admits it. */
interface DefinitionPatch {
  label?: string;
  properties?: Record<string, { label?: string; indexed?: boolean; unique?: boolean }>;
}

/** `/schemas`: read for any logged-in caller; define custom objects and properties for admins. */
export function schemaRoutes(svc: Service) {
  const find = (org: Org, name: string): ObjectDef => {
    const def = svc.defs.byName(org.id, name) ?? svc.defs.byCollection(org.id, name);
    if (!def) throw fault('notFound', 'object', { reason: `There is no object named ${name.slice(0, 100)}.` });
    return def;
  };

  return async (server: FastifyInstance) => {
    server.get('/schemas', async (request) => {
      requirePrincipal(request);
      return { object: 'list', data: svc.defs.all(request.ctx.org.id).map(presentSchema), hasMore: false };
    });

    server.get<{ Params: { name: string } }>('/schemas/:name', async (request) => {
      requirePrincipal(request);
      return presentSchema(find(request.ctx.org, request.params.name));
    });

    server.post('/schemas', ADMIN_ONLY, async (request) => {
      const { org } = request.ctx;
      const def = checkNewObject(request.body);
      if (svc.defs.byName(org.id, def.name)) throw fault('exists', 'object', { reason: `${def.name} already exists.` });
      svc.db.transaction(() => {
        svc.defs.save(org.id, def);
        svc.store.ensureCollection(org.id, def);
      })();
      return presentSchema(def);
    });

    server.post<{ Params: { name: string } }>('/schemas/:name/properties', ADMIN_ONLY, async (request) => {
      const { org } = request.ctx;
      const faults: FaultBody[] = [];
      const prop = checkPropertyDef(request.body, 'property', 0, faults);
      if (!prop) throw fault('validation', undefined, { faults, reason: 'The property is not valid.' });
      const def = addProperty(find(org, request.params.name), prop);
      svc.db.transaction(() => {
        svc.defs.save(org.id, def);
        svc.store.ensureCollection(org.id, def); // builds the new property's index
      })();
      return presentSchema(def);
    });

    /** Alter a definition: its label, and the label/indexed/unique flags of its custom properties. */
    server.patch<{ Params: { name: string }; Body: DefinitionPatch }>(
      '/schemas/:name',
      {
        config: { admin: true },
        schema: {
          body: {
            type: 'object',
            additionalProperties: false,
            properties: {
              label: { type: 'string', minLength: 1, maxLength: 200 },
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
          },
        },
      },
      async (request) => {
        const { org } = request.ctx;
        const def = structuredClone(find(org, request.params.name));
        const { body } = request;
        if (body.label) def.label = body.label;
        for (const [name, change] of Object.entries(body.properties ?? {})) {
          const prop = def.properties.find((p) => p.name === name);
          if (!prop)
            throw fault('notFound', 'property', { path: name, reason: `${def.name} has no property ${name}.` });
          if (!prop.custom)
            throw fault('accessDenied', 'property', { path: name, reason: 'Built-in properties cannot be altered.' });
          if ((change.indexed || change.unique) && (prop.type === 'Document' || prop.type === 'List')) {
            throw fault('validation', 'definition', {
              path: name,
              reason: `${prop.type} properties cannot be indexed.`,
            });
          }
          if (change.label !== undefined) prop.label = change.label;
          if (change.indexed !== undefined) prop.indexed = change.indexed;
          if (change.unique !== undefined) prop.unique = change.unique;
          if (prop.unique) prop.indexed = true;
        }
        svc.db.transaction(() => {
          svc.defs.save(org.id, def);
          svc.store.ensureCollection(org.id, def); // builds indexes for newly indexed properties
        })();
        return presentSchema(def);
      },
    );

    server.delete<{ Params: { name: string } }>('/schemas/:name', ADMIN_ONLY, async (request) => {
      const { org } = request.ctx;
      const def = find(org, request.params.name);
      if (!def.custom) throw fault('accessDenied', 'object', { reason: 'Built-in objects cannot be deleted.' });
      svc.db.transaction(() => {
        svc.defs.remove(org.id, def.name);
        svc.store.dropCollection(org.id, def);
      })();
      return { object: 'result', data: true };
    });
  };
}
