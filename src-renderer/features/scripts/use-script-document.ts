import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { ScriptRecord } from '../../api/scripts';
import { emptySaveFields, fieldsOf, type SaveFields } from './save-draft';
import {
  browserStorage,
  draftIds,
  draftKey,
  isDirty,
  readDraft,
  removeDraft,
  writeDraft,
  type ScriptDocument,
} from './script-drafts';
import type { ScriptEditorHandle } from './ScriptEditor';

interface LoadedDocument extends ScriptDocument {
  key: string | null;
}

interface Options {
  /** `draftScope(origin, org)`. */
  scope: string;
  /** The open library script's id, or undefined for the new one. */
  id: string | undefined;
  /** The open library script once the library has loaded. */
  saved: ScriptRecord | undefined;
  starter: string;
  editor: RefObject<ScriptEditorHandle | null>;
}

/**
 * The script in the editor and its save form, with its draft: opening a script (or the new one)
 * restores its draft when there is one; every edit writes the draft, or drops it once the text
 * and form equal what is saved again. While there are unsaved changes, leaving the page asks.
 */
export function useScriptDocument({ scope, id, saved, starter, editor }: Options) {
  const storage = browserStorage();
  const key = draftKey(scope, id);
  const baseline = useMemo<ScriptDocument | null>(
    () =>
      id === undefined
        ? { text: starter, fields: emptySaveFields }
        : saved
          ? { text: saved.script, fields: fieldsOf(saved) }
          : null,
    [id, saved, starter],
  );
  // `key`: the slot whose document the editor holds (null before the first load); edits are
  // written under it only, so a late keystroke never lands in the draft of another script.
  const [doc, setDoc] = useState<LoadedDocument>({ key: null, text: starter, fields: emptySaveFields });
  const [restoredAt, setRestoredAt] = useState<number | null>(null);
  const current = useRef(doc);

  const show = (next: LoadedDocument) => {
    current.current = next;
    editor.current?.setText(next.text);
    setDoc(next);
  };

  useEffect(() => {
    if (baseline === null || current.current.key === key) return;
    const draft = readDraft(storage, key);
    const keep = draft !== null && isDirty(draft, baseline);
    if (draft && !keep) removeDraft(storage, key);
    show({ key, ...(keep ? { text: draft.text, fields: draft.fields } : baseline) });
    setRestoredAt(keep ? draft.at : null);
    // `show` and `storage` are the same every render in effect; the key and the baseline decide.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, baseline]);

  const change = (next: LoadedDocument) => {
    current.current = next;
    setDoc(next);
    if (next.key !== key || baseline === null) return;
    if (isDirty(next, baseline)) writeDraft(storage, key, next, Date.now());
    else {
      removeDraft(storage, key);
      setRestoredAt(null);
    }
  };

  const dirty = baseline !== null && doc.key === key && isDirty(doc, baseline);

  // Belt and braces for storage that is off or full: the browser asks before the page goes.
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  return {
    text: doc.text,
    fields: doc.fields,
    dirty,
    restoredAt,
    /** Ids (and `NEW_SCRIPT`) of scripts with unsaved drafts in this org. */
    drafts: draftIds(storage, scope),
    setText: (text: string) => change({ ...current.current, text }),
    setFields: (fields: SaveFields) => change({ ...current.current, fields }),
    /** Back to what is saved (the starter for the new script); the draft is dropped. */
    discard: () => {
      removeDraft(storage, key);
      setRestoredAt(null);
      if (baseline) show({ key, ...baseline });
    },
    /** After a save: both slots' drafts go, and the saved record's slot is the loaded one. */
    markSaved: (record: ScriptRecord) => {
      const savedKey = draftKey(scope, record._id);
      removeDraft(storage, key);
      removeDraft(storage, savedKey);
      // The form shows the record as stored (a default label, a path without slashes…).
      current.current = { key: savedKey, text: current.current.text, fields: fieldsOf(record) };
      setDoc(current.current);
      setRestoredAt(null);
    },
  };
}
