import { describe, expect, it } from 'vitest';
import {
  loadCases,
  mergeCases,
  parseTestCaseFile,
  removeCase,
  serializeTestCases,
  storageKey,
  storeCases,
  upsertCase,
  type TestCase,
} from './test-cases';

const ROLE = '000000000000000000000006';
const sample = (name: string, over: Partial<TestCase> = {}): TestCase => ({
  name,
  chains: ['object.read.account.*.name'],
  roles: [ROLE],
  rows: [
    { operation: 'read', objectType: 'account', instanceId: '', propertyPath: 'name', expected: 'allowed' },
    { operation: 'update', objectType: 'account', instanceId: '', propertyPath: '' },
  ],
  savedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('test-case file codec', () => {
  it('round-trips', () => {
    const cases = [sample('a'), sample('b', { chains: [], roles: [] })];
    expect(parseTestCaseFile(serializeTestCases(cases))).toEqual(cases);
  });

  it('refuses files that are not test-case files', () => {
    expect(() => parseTestCaseFile('{')).toThrow('not JSON');
    expect(() => parseTestCaseFile('{"version":1,"cases":[]}')).toThrow('scope test-case file');
    expect(() => parseTestCaseFile('{"format":"scope-test-cases","version":1,"cases":[{"name":""}]}')).toThrow(
      'None of the test cases',
    );
  });

  it('drops malformed cases and bad role ids, keeps the rest', () => {
    const text = JSON.stringify({
      format: 'scope-test-cases',
      version: 1,
      cases: [
        sample('good', { roles: [ROLE, 'nope'] }),
        { ...sample('bad row'), rows: [{ operation: 'launch', objectType: 'account' }] },
        { ...sample('bad expected'), rows: [{ operation: 'read', objectType: 'account', expected: 'maybe' }] },
        { ...sample('bad chains'), chains: [42] },
      ],
    });
    const cases = parseTestCaseFile(text);
    expect(cases.map((c) => c.name)).toEqual(['good']);
    expect(cases[0]?.roles).toEqual([ROLE]);
  });
});

describe('case list', () => {
  it('upserts by name, newest first; removes; merges with imports winning', () => {
    let cases = upsertCase([], sample('a'));
    cases = upsertCase(cases, sample('b'));
    cases = upsertCase(cases, sample('a', { chains: ['*'] }));
    expect(cases.map((c) => [c.name, c.chains[0]])).toEqual([
      ['a', '*'],
      ['b', 'object.read.account.*.name'],
    ]);
    expect(removeCase(cases, 'a').map((c) => c.name)).toEqual(['b']);
    const merged = mergeCases(cases, [sample('b', { chains: ['script'] }), sample('c')]);
    expect(merged.map((c) => c.name)).toEqual(['b', 'c', 'a']);
    expect(merged[0]?.chains).toEqual(['script']);
  });

  it('stores per org and survives broken storage', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
    storeCases(storage, 'demo', [sample('a')]);
    expect(data.has(storageKey('demo'))).toBe(true);
    expect(loadCases(storage, 'demo').map((c) => c.name)).toEqual(['a']);
    expect(loadCases(storage, 'other')).toEqual([]);
    data.set(storageKey('demo'), '{broken');
    expect(loadCases(storage, 'demo')).toEqual([]);
  });
});
