import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Doc, Json } from './validate.js';

/**
 * What the object store hands out and takes in: records (parsed lazily from their stored text),
 * write metadata, references, and the derivation hook. Kept apart from the store's SQL so the
 * layers that only pass records around do not depend on the repository.
 */

export interface StoredRecord {
  _id: string;
  doc: Doc;
}

/**
 * Properties the service derives from other records (an account's `inherited_roles` from the role
 * graph): `derive` fills them into a document about to be stored; `afterWrite` runs after a
 * record of `def` was written or deleted (a role change re-derives the accounts that hold roles).
 * Wired by service.ts, so the store stays below the access model it serves.
 */
export interface Derivations {
  derive(orgId: number, def: ObjectDef, doc: Doc): void;
  afterWrite(orgId: number, def: ObjectDef): void;
}

/**
 * The fields `derivations` add to a document of `def` holding `fields`, as they are serialised
 * after its own keys (`,"key":value…`, or '' when none), for a writer that serialises documents
 * itself (the demo seeder). Derivations read only the fields they derive from (an account's
 * `roles`), so a document with just those gives the same.
 */
export function derivedFields(
  derivations: Derivations | undefined,
  orgId: number,
  def: ObjectDef,
  fields: Doc,
): string {
  if (!derivations) return '';
  const doc: Doc = { ...fields };
  derivations.derive(orgId, def, doc);
  let out = '';
  for (const [key, value] of Object.entries(doc)) {
    if (!(key in fields)) out += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  }
  return out;
}

export interface WriteMeta {
  updaterId?: string;
  /** Import keeps these when given. */
  _id?: string;
  created?: string;
  updated?: string;
  /**
   * The record is one no in-memory cache holds and changes nothing a cache holds (a script run's
   * log entry, an audit entry): the insert leaves the data version where it is, so a run (each
   * writes its log entry) does not make the next request reload the orgs, apps, sessions,
   * definitions and roles the caches keep (db/data-version.ts).
   */
  uncached?: boolean;
}

/**
 * A record read with its stored JSON text; `doc` is parsed on first use. A class, so a 1,000-row
 * page makes 1,000 small objects sharing one getter rather than 1,000 closures.
 */
export class LazyRecord implements StoredRecord {
  private parsed: Doc | undefined;
  constructor(
    readonly _id: string,
    readonly text: string,
  ) {}
  get doc(): Doc {
    this.parsed ??= JSON.parse(this.text) as Doc;
    return this.parsed;
  }
}

export function lazyRecord(_id: string, text: string): StoredRecord & { text: string } {
  return new LazyRecord(_id, text);
}

export function reference(object: string, id: string): Json {
  return { _id: id, object, path: `/${object}s/${id}` };
}

export function stripNulls(values: Record<string, Json>): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(values)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

export function pickKeys(doc: Doc, keys: string[]): Doc {
  const out: Doc = {};
  for (const k of keys) if (doc[k] !== undefined) out[k] = doc[k] as Json;
  return out;
}
