/**
 * Differential test: projecting a record's stored text by splice agrees with the shared evaluator
 * (`projectPaths`) and with the access layer's scope stripping, on random records and key sets.
 */
import { describe, expect, it } from 'vitest';
import { projectPaths } from '../../../src-shared/query/project.js';
import { stripProperties } from '../access/scope-guard.js';
import type { Json } from './validate.js';
import { spliceTopLevelKeys, topLevelValueSpan } from './splice-keys.js';

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ['a', 'name', 'email', 'x"y', 'back\\slash', 'ü', 'new\nline', '{', ',', '}', '[', 'tab\t', 'c'];
const STRINGS = ['', 'plain', 'with "quotes"', 'back\\slash\\', '}],{[', 'ünïcødé ✓', '\u0000\u001f', 'a,b:c'];

function value(r: () => number, depth: number): Json {
  const pick = Math.floor(r() * (depth > 2 ? 5 : 7));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return Math.round((r() - 0.5) * 1e6) / (r() < 0.5 ? 1 : 1000);
    case 3:
    case 4:
      return STRINGS[Math.floor(r() * STRINGS.length)]!;
    case 5:
      return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
    default:
      return doc(r, depth + 1);
  }
}

function doc(r: () => number, depth = 0): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const key of KEYS) if (r() < 0.5) out[key] = value(r, depth);
  return out;
}

describe('spliceTopLevelKeys', () => {
  it('agrees with projectPaths and stripProperties on 2,000 random records', () => {
    const r = rng(14);
    for (let n = 0; n < 2000; n++) {
      const record = doc(r);
      const keep = KEYS.filter(() => r() < 0.4);
      const spliced = spliceTopLevelKeys(JSON.stringify(record), new Set(keep));
      expect(spliced).toBe(JSON.stringify(projectPaths(record, keep)));
      expect(spliced).toBe(JSON.stringify(stripProperties(record, keep)));
    }
  });

  it('handles an empty document and an empty key set', () => {
    expect(spliceTopLevelKeys('{}', new Set(['a']))).toBe('{}');
    expect(spliceTopLevelKeys('{"a":1}', new Set())).toBe('{}');
  });
});

describe('topLevelValueSpan', () => {
  it("finds a top-level member's value, never one nested or inside a string", () => {
    const doc = {
      c_a: { c_ref: { _id: 'nested' } },
      'c_"q': 'has "c_ref":{} inside',
      c_ref: { _id: 'top', object: 'c_kid', path: '/c_kids/top' },
      c_z: [1, { c_ref: 2 }],
    };
    const text = JSON.stringify(doc);
    const span = topLevelValueSpan(text, 'c_ref')!;
    expect(JSON.parse(text.slice(span.start, span.end))).toEqual(doc.c_ref);
    const quoted = topLevelValueSpan(text, 'c_"q')!;
    expect(JSON.parse(text.slice(quoted.start, quoted.end))).toBe(doc['c_"q']);
    expect(topLevelValueSpan(text, 'c_missing')).toBeUndefined();
    expect(topLevelValueSpan('{}', 'c_ref')).toBeUndefined();
  });
});
