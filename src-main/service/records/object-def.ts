/**
 * Which object a request names, and the faults every record operation answers with: an object by
 * its name or collection name (`account` and `accounts` are the same), an `_id` from a path, and
 * "no such instance" (also what a caller who may not read an instance gets: it is never revealed).
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { REQUIRED } from '../access/levels.js';

/** An object by its name or its collection name, or undefined. */
export function findObjectDef(svc: Service, org: Org, name: string): ObjectDef | undefined {
  return svc.defs.byName(org.id, name) ?? svc.defs.byCollection(org.id, name);
}

/** An object by its name or its collection name: `account` and `accounts` are the same. */
export function objectDef(svc: Service, org: Org, name: string): ObjectDef {
  const def = findObjectDef(svc, org, name);
  if (!def) throw fault('notFound', 'object', { reason: `There is no object named ${name.slice(0, 100)}.` });
  return def;
}

/** An object by its collection name (REST paths: `/<collection>`). */
export function collectionDef(svc: Service, org: Org, collection: string): ObjectDef {
  const def = svc.defs.byCollection(org.id, collection);
  if (!def) throw fault('notFound', 'object', { reason: `There is no collection named ${collection.slice(0, 100)}.` });
  return def;
}

/** An `_id` as a path gives it (any case), lower-cased; invalidObjectId otherwise. */
export function instanceId(id: string): string {
  const lower = id.toLowerCase();
  if (!OBJECT_ID_PATTERN.test(lower)) {
    throw fault('invalidArgument', 'invalidObjectId', { reason: 'Object ids are 24 hexadecimal characters.' });
  }
  return lower;
}

export const notFoundInstance = (def: ObjectDef, id: string) =>
  fault('notFound', 'instance', { reason: `No ${def.name} with _id ${id}.` });

export const denied = (def: ObjectDef, operation: 'update' | 'delete', level: number) =>
  fault('accessDenied', undefined, {
    reason: `You need ${operation} access (${REQUIRED[operation]}) on this ${def.name}; you have ${level}.`,
  });
