/**
 * Unsaved script text kept in this browser (issue 44 item 1), so a session that ends, a trip to
 * another screen or a reload loses nothing. One draft per library script and one for the new,
 * unsaved script, under keys scoped by the service's origin and the org: drafts of one service or
 * org never open in another. Script text is no secret (the library holds the same); run output,
 * which may hold tokens, is never stored.
 *
 * Trust boundary: storage is user-editable; an entry of the wrong shape reads as no draft.
 */
import { emptySaveFields, sameFields, type SaveFields } from './save-draft';

/** What the editor and the save form hold. */
export interface ScriptDocument {
  text: string;
  fields: SaveFields;
}

export interface StoredDraft extends ScriptDocument {
  /** When it was last written (ms since the epoch). */
  at: number;
}

/** The part of `Storage` drafts use (a test passes a Map-backed one). */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

const PREFIX = 'console.scripts.draft|';
/** The new, unsaved script's slot. */
export const NEW_SCRIPT = 'new';

export function draftScope(origin: string, org: string): string {
  return `${PREFIX}${encodeURIComponent(origin)}|${encodeURIComponent(org)}|`;
}

export function draftKey(scope: string, id: string | undefined): string {
  return `${scope}${id ?? NEW_SCRIPT}`;
}

/** Whether the document differs from what is saved (or, for a new script, from the starter). */
export function isDirty(doc: ScriptDocument, baseline: ScriptDocument): boolean {
  return doc.text !== baseline.text || !sameFields(doc.fields, baseline.fields);
}

export function readDraft(storage: DraftStorage | null, key: string): StoredDraft | null {
  let raw: string | null;
  try {
    raw = storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredDraft> | null;
    if (typeof value?.text !== 'string' || typeof value.at !== 'number') return null;
    return { text: value.text, fields: fieldsFrom(value.fields), at: value.at };
  } catch {
    return null;
  }
}

/** Keeps only known fields of the right type; the rest fall back to the empty form's. */
function fieldsFrom(raw: unknown): SaveFields {
  const fields: SaveFields = { ...emptySaveFields, acl: [] };
  if (typeof raw !== 'object' || raw === null) return fields;
  const record = raw as Record<string, unknown>;
  const target = fields as unknown as Record<string, unknown>;
  for (const [key, empty] of Object.entries(emptySaveFields)) {
    const value = record[key];
    if (Array.isArray(empty)) {
      if (Array.isArray(value)) target[key] = value.filter((v): v is string => typeof v === 'string');
    } else if (typeof value === typeof empty) target[key] = value;
  }
  return fields;
}

/** Writes the draft; false when storage refuses (full, or turned off). */
export function writeDraft(storage: DraftStorage | null, key: string, doc: ScriptDocument, at: number): boolean {
  try {
    if (!storage) return false;
    storage.setItem(key, JSON.stringify({ text: doc.text, fields: doc.fields, at }));
    return true;
  } catch {
    return false;
  }
}

export function removeDraft(storage: DraftStorage | null, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    /* storage off: nothing was kept */
  }
}

/** The ids (and `NEW_SCRIPT`) with a draft in this scope. */
export function draftIds(storage: DraftStorage | null, scope: string): Set<string> {
  const ids = new Set<string>();
  try {
    if (!storage) return ids;
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(scope)) ids.add(key.slice(scope.length));
    }
  } catch {
    /* storage off */
  }
  return ids;
}

/** The browser's localStorage, or null where it cannot be reached. */
export function browserStorage(): DraftStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}
