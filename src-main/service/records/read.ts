/**
 * Reading one record by `_id`, for every reader: the caller's read scope on the instance, the
 * record and the caller's level on it; notFound when it is missing or the caller cannot read it
 * (an instance they may not read is never revealed). `readInstance` is REST's answer
 * (`GET /<collection>/<_id>`, the commonest request there is).
 */
import { projectPaths } from '../../../src-shared/query/project.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { AllowedProperties } from '../../../src-shared/scopes/property-path.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { StoredRecord } from '../objects/stored-record.js';
import { presentRecord, presentRecordText, presentsVerbatim } from '../objects/present.js';
import { ACCESS, REQUIRED } from '../access/levels.js';
import { levelOf } from '../access/acl.js';
import { requireScope, stripProperties } from '../access/scope-guard.js';
import type { Caller } from '../access/caller.js';
import { notFoundInstance } from './object-def.js';
import { rawListArgs } from './list-args.js';
import { addListProperties, hasListProperties, isListProperty, listFromArgs } from './list-from-args.js';
import { expandPage, selectionOf } from './expand.js';

export interface ReadRecord {
  record: StoredRecord & { text: string };
  /** The caller's level on it. */
  level: number;
  /** What the caller's scopes let them read on it. */
  allowed: AllowedProperties;
}

/** The record and the caller's level on it; notFound when missing or not readable (never revealed). */
export function readRecord(svc: Service, org: Org, caller: Caller, def: ObjectDef, id: string): ReadRecord {
  const allowed = requireScope(caller, 'read', def, id);
  const record = svc.store.getText(org.id, def, id);
  const level = record ? levelOf(svc, org, caller, def, record) : 0;
  if (!record || level < REQUIRED.read) throw notFoundInstance(def, id);
  return { record, level, allowed };
}

/** The caller's level on a record (writes of many records skip those below the level needed). */
export function levelOn(svc: Service, org: Org, caller: Caller, def: ObjectDef, id: string): number {
  const record = svc.store.get(org.id, def, id);
  return record ? levelOf(svc, org, caller, def, record) : 0;
}

/**
 * One record as REST answers it, given the request's raw query string (`paths[]`, and each list
 * property's own arguments): the stored text when it can be sent as it is, else the presented
 * record with the list properties asked for.
 */
export function readInstance(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  id: string,
  queryString: Record<string, unknown> | undefined,
): string | Record<string, unknown> {
  const { record, level, allowed } = readRecord(svc, org, caller, def, id);
  const raw = rawListArgs(queryString, '');
  const selecting = raw.paths || raw.expand || raw.include;
  // The commonest read, a whole record with nothing nested: written out from its stored text.
  if (!selecting && allowed === 'all' && presentsVerbatim(def) && !hasListProperties(def)) {
    return presentRecordText(def, record, level);
  }
  const selection = selecting ? selectionOf(svc, org, def, raw) : undefined;
  let out = stripProperties(presentRecord(def, record, level), allowed);
  if (selection?.paths) out = projectPaths(out, selection.paths) as typeof out;
  addListProperties(svc, org, caller, def, out, {
    level,
    allowed,
    paths: selection?.paths,
    include: selection?.include,
    query: queryString,
  });
  expandPage(svc, org, caller, [out], selection);
  return out;
}

/**
 * A list property read by its own path (`GET /c_patientfiles/<_id>/connections?pipeline=…`): the
 * list arguments unprefixed, over the entries of the record the caller may read (all of them when
 * they may share the record). Undefined when `name` is no list property of the definition.
 */
export function listPropertyFromArgs(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  id: string,
  name: string,
  queryString: unknown,
): ReturnType<typeof listFromArgs> | undefined {
  const prop = def.properties.find((p) => p.name === name);
  if (!prop || !isListProperty(prop)) return undefined;
  const { level } = readRecord(svc, org, caller, def, id);
  const listDef = svc.defs.byName(org.id, prop.refObject);
  if (!listDef) return undefined;
  return listFromArgs(svc, org, caller, listDef, queryString, {
    filters: [{ kind: 'equals', path: 'context._id', value: id }],
    contextual: level >= ACCESS.share,
  });
}
