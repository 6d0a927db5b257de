/**
 * A side-by-side line diff of two JSON documents for the import review. Both sides are written
 * with sorted keys first, so a document that differs only in key order shows no change (the
 * service compares resources the same way, environment/diff.ts).
 */
import { diffLines } from 'diff';

export type DiffSide = { line: number; text: string; kind: 'same' | 'removed' | 'added' } | null;
export interface DiffRow {
  left: DiffSide;
  right: DiffSide;
}

/** JSON text with object keys sorted at every level, indented two spaces. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

/**
 * Rows of a side-by-side view: unchanged lines on both sides, a removed run beside the added run
 * that replaced it, and blank cells where one side has nothing.
 */
export function sideBySide(before: unknown, after: unknown): DiffRow[] {
  const left = before === undefined ? '' : canonicalJson(before) + '\n';
  const right = after === undefined ? '' : canonicalJson(after) + '\n';
  const rows: DiffRow[] = [];
  let l = 1;
  let r = 1;
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      rows.push({
        left: i < removed.length ? { line: l++, text: removed[i]!, kind: 'removed' } : null,
        right: i < added.length ? { line: r++, text: added[i]!, kind: 'added' } : null,
      });
    }
    removed = [];
    added = [];
  };
  for (const part of diffLines(left, right)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    if (part.removed) removed.push(...lines);
    else if (part.added) added.push(...lines);
    else {
      flush();
      for (const text of lines) {
        rows.push({ left: { line: l++, text, kind: 'same' }, right: { line: r++, text, kind: 'same' } });
      }
    }
  }
  flush();
  return rows;
}
