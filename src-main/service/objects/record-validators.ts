/**
 * Pre-write checks per object type, registered by the parts of the service that own a type (the
 * script library registers `script`). The one write path every record goes through
 * (environment/record-rules.ts `checkRecordRules`, called by driver/records.ts `createRecord` and
 * `patchRecord` — REST POST/PATCH/PUT and sub-paths, the driver API, scripts' `org.objects`)
 * consults this registry, so no way of writing a record skips its type's rules, and the write path
 * needs no import of the modules that own the rules (which import the write path themselves).
 */
import type { Org } from '../orgs/orgs.js';
import type { Doc } from './validate.js';

export interface RecordWrite {
  org: Org;
  /** The record as it would be stored: the current document with the write applied. */
  merged: Doc;
  /** The record's `_id` on update; undefined on create. */
  selfId?: string;
}

/** Throws a fault when the write must not happen; runs inside the write transaction, so it is synchronous. */
export type RecordValidator = (write: RecordWrite) => void;

export class RecordValidators {
  private readonly byObject = new Map<string, Map<string, RecordValidator>>();

  /** Adds (or, under the same `key`, replaces) a validator of records of `objectName`. */
  register(objectName: string, key: string, validator: RecordValidator): void {
    const validators = this.byObject.get(objectName) ?? new Map<string, RecordValidator>();
    validators.set(key, validator);
    this.byObject.set(objectName, validators);
  }

  check(objectName: string, write: RecordWrite): void {
    for (const validator of this.byObject.get(objectName)?.values() ?? []) validator(write);
  }
}
