import { describe, expect, it } from 'vitest';
import { emptySaveFields } from './save-draft';
import {
  draftIds,
  draftKey,
  draftScope,
  isDirty,
  NEW_SCRIPT,
  readDraft,
  removeDraft,
  writeDraft,
  type DraftStorage,
} from './script-drafts';

/** A Storage over a Map, as localStorage behaves. */
function memoryStorage(): DraftStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

const doc = { text: 'return 1', fields: { ...emptySaveFields, name: 'c_x' } };

describe('script drafts', () => {
  it('keys drafts by service origin, org and script, so another service or org never sees them', () => {
    const a = draftScope('http://127.0.0.1:4000', 'demo');
    expect(draftKey(a, 'f'.repeat(24))).not.toBe(draftKey(draftScope('http://127.0.0.1:4001', 'demo'), 'f'.repeat(24)));
    expect(draftKey(a, undefined)).not.toBe(draftKey(draftScope('http://127.0.0.1:4000', 'other'), undefined));
    expect(draftKey(a, undefined).endsWith(`|${NEW_SCRIPT}`)).toBe(true);
    // An org code cannot forge another scope's separator.
    expect(draftScope('o', 'a|b')).not.toBe(draftScope('o|a', 'b'));
  });

  it('writes, reads back and removes a draft, and lists the drafted ids of the scope only', () => {
    const storage = memoryStorage();
    const scope = draftScope('http://x', 'demo');
    const other = draftScope('http://x', 'other');
    expect(writeDraft(storage, draftKey(scope, 'abc'), doc, 42)).toBe(true);
    writeDraft(storage, draftKey(scope, undefined), doc, 43);
    writeDraft(storage, draftKey(other, 'zzz'), doc, 44);
    expect(readDraft(storage, draftKey(scope, 'abc'))).toEqual({ ...doc, at: 42 });
    expect([...draftIds(storage, scope)].sort()).toEqual(['abc', NEW_SCRIPT]);
    removeDraft(storage, draftKey(scope, 'abc'));
    expect(readDraft(storage, draftKey(scope, 'abc'))).toBeNull();
  });

  it('reads a malformed entry as no draft, and unknown or mistyped fields as those of the empty form', () => {
    const storage = memoryStorage();
    storage.setItem('k1', 'not json');
    storage.setItem('k2', JSON.stringify({ text: 5, at: 1 }));
    storage.setItem(
      'k3',
      JSON.stringify({ text: 'x', at: 1, fields: { name: 7, acl: ['a', 3], active: false, evil: 1 } }),
    );
    expect(readDraft(storage, 'k1')).toBeNull();
    expect(readDraft(storage, 'k2')).toBeNull();
    expect(readDraft(storage, 'k3')?.fields).toEqual({ ...emptySaveFields, acl: ['a'], active: false });
  });

  it('survives storage that throws (turned off, or full)', () => {
    const broken: DraftStorage = {
      length: 0,
      key: () => {
        throw new Error('off');
      },
      getItem: () => {
        throw new Error('off');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('off');
      },
    };
    expect(writeDraft(broken, 'k', doc, 1)).toBe(false);
    expect(readDraft(broken, 'k')).toBeNull();
    expect(() => removeDraft(broken, 'k')).not.toThrow();
    expect(draftIds(null, 'x').size).toBe(0);
  });

  it('is dirty when the text or any field differs from what is saved', () => {
    expect(isDirty(doc, { ...doc, fields: { ...doc.fields, acl: [] } })).toBe(false);
    expect(isDirty({ ...doc, text: 'return 2' }, doc)).toBe(true);
    expect(isDirty({ ...doc, fields: { ...doc.fields, principal: 'a@b.c' } }, doc)).toBe(true);
  });
});
