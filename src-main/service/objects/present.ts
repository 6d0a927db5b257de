import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Json } from './validate.js';
import type { StoredRecord } from './stored-record.js';

const hiddenByDef = new WeakMap<ObjectDef, Set<string>>();

/** Names of properties never returned by reads; computed once per definition (lists call this per record). */
function hiddenProperties(def: ObjectDef): Set<string> {
  let hidden = hiddenByDef.get(def);
  if (!hidden) {
    hidden = new Set(def.properties.filter((p) => p.hidden).map((p) => p.name));
    hiddenByDef.set(def, hidden);
  }
  return hidden;
}

const levelKeyByDef = new WeakMap<ObjectDef, string>();

/**
 * The key of the caller's level in a presented record: `access` (docs/scopes.md), except on objects
 * that store a property of that name themselves: a connection's `access` is the level it grants
 * (docs/compatibility.md#records-and-routes-as-the-original-shapes-them; clients create connections with it), so there the
 * caller's own level is `accessLevel`. One key each, never the same key twice in one object.
 */
export function levelKey(def: ObjectDef): string {
  let key = levelKeyByDef.get(def);
  if (key === undefined) {
    key = def.properties.some((p) => p.name === 'access') ? 'accessLevel' : 'access';
    levelKeyByDef.set(def, key);
  }
  return key;
}

/** The API form of a stored record: `_id`, `object`, the caller's level (see levelKey), then its properties. */
export function presentRecord(def: ObjectDef, record: StoredRecord, access: number): Record<string, Json> {
  const out: Record<string, Json> = { _id: record._id, object: def.name, [levelKey(def)]: access };
  const hidden = hiddenProperties(def);
  for (const [k, v] of Object.entries(record.doc)) if (hidden.size === 0 || !hidden.has(k)) out[k] = v;
  return out;
}

/**
 * The JSON text of a record, built from its stored document's text: byte for byte what
 * `JSON.stringify(presentRecord(def, record, access))` gives, without parsing and re-serialising
 * it. Only for definitions without hidden properties and records shown whole (no projection, no
 * property-limited scope).
 */
export function presentRecordText(def: ObjectDef, record: { _id: string; text: string }, access: number): string {
  return recordText(objectMember(def), record, access);
}

const objectMembers = new WeakMap<ObjectDef, string>();

/** `,"object":"<name>","<level key>":` of a definition, built once (lists write it per record). */
function objectMember(def: ObjectDef): string {
  let member = objectMembers.get(def);
  if (member === undefined) {
    member = `,"object":${JSON.stringify(def.name)},"${levelKey(def)}":`;
    objectMembers.set(def, member);
  }
  return member;
}

function recordText(member: string, record: { _id: string; text: string }, access: number): string {
  const { _id: id, text } = record;
  // One concatenation per record, and the id quoted by hand when it is the usual 24 hex (a page of
  // 100 records: 12 µs against 20 with JSON.stringify and a template per record).
  const head = isPlainId(id) ? `{"_id":"${id}"` : `{"_id":${JSON.stringify(id)}`;
  return text === '{}' ? head + member + access + '}' : head + member + access + ',' + text.slice(1);
}

/** 24 lower-case hex characters: nothing to escape. A loop, which costs less here than the pattern's test. */
function isPlainId(id: string): boolean {
  if (id.length !== 24) return false;
  for (let i = 0; i < 24; i++) {
    const c = id.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/**
 * A list page's JSON text from its records' stored text, as `presentRecordText` builds each:
 * appended to one string (V8 keeps it as a rope until it is written out), no array of items.
 */
export function presentListText(
  def: ObjectDef,
  rows: readonly { _id: string; text: string }[],
  levels: readonly number[],
  hasMore: boolean,
): string {
  const member = objectMember(def);
  let out = '{"object":"list","data":[';
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) out += ',';
    out += recordText(member, rows[i]!, levels[i] ?? 0);
  }
  return `${out}],"hasMore":${hasMore}}`;
}

/** Whether records of this definition may be written out from their stored text as they are. */
export function presentsVerbatim(def: ObjectDef): boolean {
  return hiddenProperties(def).size === 0;
}
