import { describe, expect, it } from 'vitest';
import { canonicalJson, sideBySide } from './json-diff';

describe('sideBySide', () => {
  it('shows no change for documents that differ only in key order', () => {
    const rows = sideBySide({ b: 1, a: { y: 2, x: 1 } }, { a: { x: 1, y: 2 }, b: 1 });
    expect(rows.every((r) => r.left?.kind === 'same' && r.right?.kind === 'same')).toBe(true);
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{\n  "a": 2,\n  "b": 1\n}');
  });

  it('puts a changed line beside its replacement, numbering each side', () => {
    const rows = sideBySide({ label: 'Old', name: 'x' }, { label: 'New', name: 'x', extra: true });
    const changed = rows.filter((r) => r.left?.kind !== 'same' || r.right?.kind !== 'same');
    // the removed run sits beside the added run that replaced it, each side numbered on its own
    expect(changed[0]!.left).toEqual({ line: 2, text: '  "label": "Old",', kind: 'removed' });
    expect(changed.map((r) => r.right?.text)).toEqual(['  "extra": true,', '  "label": "New",']);
    expect(changed.map((r) => r.right?.line)).toEqual([2, 3]);
    expect(changed[1]!.left).toBeNull();
  });

  it('shows an added resource on the right only and a removed one on the left only', () => {
    expect(sideBySide(undefined, { a: 1 }).every((r) => r.left === null && r.right?.kind === 'added')).toBe(true);
    expect(sideBySide({ a: 1 }, undefined).every((r) => r.right === null && r.left?.kind === 'removed')).toBe(true);
  });
});
