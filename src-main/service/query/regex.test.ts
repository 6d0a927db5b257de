import Database from 'better-sqlite3';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { THING_DEF } from '../../../src-shared/query/testing/fixture-def.js';
import { compileListQuery } from './compile.js';
import { registerQueryFunctions } from './functions.js';
import { indexStatements } from './indexes.js';
import { anchoredLiteralPrefix, regexPrefixRanges } from './regex-prefix.js';

function openDb(): Database.Database {
  const db = new Database(':memory:');
  registerQueryFunctions(db);
  db.exec('CREATE TABLE things (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL)');
  for (const s of indexStatements('things', THING_DEF)) db.exec(s);
  return db;
}

describe('anchored literal prefix', () => {
  it.each([
    ['^abc', '', 'abc'],
    ['^ab?c', '', 'a'],
    ['^ab*', '', 'a'],
    ['^ab{2}', '', 'a'],
    ['^ab+c', '', 'ab'],
    ['^a\\.b', '', 'a.b'],
    ['^a\\db', '', 'a'],
    ['^a.b', '', 'a'],
    ['^ab(c|d)', '', 'ab'],
    ['^ab|cd', '', ''],
    ['^a[|]b', '', 'a'],
    ['abc', '', ''],
    ['^abc', 'm', ''],
    [' ^ a b # comment', 'x', 'ab'],
    ['^\u{1F600}x', '', '\u{1F600}x'],
  ])('%j /%s → %j', (source, flags, prefix) => {
    expect(anchoredLiteralPrefix({ source, flags }).join('')).toBe(prefix);
  });
});

describe('prefix ranges', () => {
  it('case-sensitive: one range bounded by the next code point', () => {
    expect(regexPrefixRanges({ source: '^Smi', flags: '' })).toEqual([{ from: 'Smi', to: 'Smj' }]);
  });
  it('skips the surrogate block and handles supplementary characters', () => {
    expect(regexPrefixRanges({ source: '^\uD7FF', flags: '' })).toEqual([{ from: '\uD7FF', to: '\uE000' }]);
    expect(regexPrefixRanges({ source: '^\u{1F600}', flags: '' })).toEqual([{ from: '\u{1F600}', to: '\u{1F601}' }]);
  });
  it('case-insensitive: every case variant RE2 folds, incl. ſ and the Kelvin sign', () => {
    expect(
      regexPrefixRanges({ source: '^s', flags: 'i' })
        .map((r) => r.from)
        .sort(),
    ).toEqual(['S', 's', 'ſ']);
    expect(
      regexPrefixRanges({ source: '^k1', flags: 'i' })
        .map((r) => r.from)
        .sort(),
    ).toEqual(['K1', 'k1', '\u212A1']);
  });
  it('case-insensitive: at most 3 cased characters get variants', () => {
    const ranges = regexPrefixRanges({ source: '^abcd', flags: 'i' });
    expect(ranges).toHaveLength(8);
    expect(ranges.every((r) => r.from.length === 3)).toBe(true);
  });
  it('only ſ (U+017F) and K (U+212A) fold onto ASCII letters outside ASCII (scan of planes 0–1)', () => {
    const asciiLetter = RE2JS.compile('[a-z]', RE2JS.CASE_INSENSITIVE);
    const found: number[] = [];
    for (let cp = 0x80; cp <= 0x1ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (asciiLetter.testExact(String.fromCodePoint(cp))) found.push(cp);
    }
    expect(found).toEqual([0x17f, 0x212a]);
  });
});

describe('$regex in SQLite', () => {
  it('{"name.last":{"$regex":"/^s/i"}} is served by the index on name.last', () => {
    const db = openDb();
    const q = compileListQuery(parseListQuery({ where: '{"name.last":{"$regex":"/^s/i"}}' }, THING_DEF), {
      table: 'things',
    });
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[]).map(
      (r) => r.detail,
    );
    expect(plan.some((d) => d.includes('USING INDEX ix_things__name_last'))).toBe(true);
    expect(plan.some((d) => /^SCAN things\b/.test(d))).toBe(false);
    db.close();
  });

  it('range + residual match stay exact (case variants, non-prefix rows, ſ)', () => {
    const db = openDb();
    const lasts = ['smith', 'Smith', 'ſmith', 'jones', 'Sx', 'tsmith', 's', ''];
    lasts.forEach((last, i) =>
      db
        .prepare('INSERT INTO things VALUES (?, ?)')
        .run(String(i).padStart(24, '0'), JSON.stringify({ name: { last } })),
    );
    const run = (regex: string) => {
      const q = compileListQuery(
        parseListQuery({ where: JSON.stringify({ 'name.last': { $regex: regex } }), sort: 'name.last' }, THING_DEF),
        { table: 'things' },
      );
      return (db.prepare(q.sql).all(...q.params) as { doc: string }[]).map(
        (r) => (JSON.parse(r.doc) as { name: { last: string } }).name.last,
      );
    };
    expect(run('/^s/i')).toEqual(['Smith', 'Sx', 's', 'smith', 'ſmith']);
    expect(run('/^sm/')).toEqual(['smith']);
    expect(run('/^S.+h$/')).toEqual(['Smith']);
    expect(run('/smith/')).toEqual(['smith', 'tsmith']);
    db.close();
  });

  it('re_match: non-text values never match; flags apply', () => {
    const db = openDb();
    const m = (p: string, f: string, v: unknown) =>
      (db.prepare('SELECT re_match(?, ?, ?) AS r').get(p, f, v) as { r: number }).r;
    expect(m('^a', '', 'abc')).toBe(1);
    expect(m('^A', '', 'abc')).toBe(0);
    expect(m('^A', 'i', 'abc')).toBe(1);
    expect(m('^b', 'm', 'a\nb')).toBe(1);
    expect(m('a.b', '', 'a\nb')).toBe(0);
    expect(m('a.b', 's', 'a\nb')).toBe(1);
    expect(m('a b # comment', 'x', 'ab')).toBe(1);
    expect(m('1', '', 1)).toBe(0);
    expect(m('a', '', null)).toBe(0);
    db.close();
  });
});

describe('ReDoS corpus: linear-time matching through re_match', () => {
  const db = openDb();
  const evil = [
    '/(a+)+$/',
    '/(a|aa)+$/',
    '/(.*a){20}/',
    '/(a*)*b/',
    '/^(([a-z])+.)+[A-Z]([a-z])+$/',
    '/(x+x+)+y/',
    '/(\\w+\\s?)+$/',
  ];
  const inputs = ['a'.repeat(30_000) + '!', 'x'.repeat(30_000), 'ab '.repeat(10_000) + '!'];
  it.each(evil)('%s against 30k-character inputs', (regex) => {
    const parsed = parseListQuery({ where: JSON.stringify({ c_str: { $regex: regex } }) }, THING_DEF);
    expect(parsed.where).toBeDefined();
    const [, source = '', flags = ''] = /^\/(.*)\/([a-z]*)$/.exec(regex) ?? [];
    // A backtracking engine needs longer than the age of the universe here, so it would never
    // reach the assertions (the test's timeout ends it); RE2 answers in milliseconds.
    for (const input of inputs) {
      const r = db.prepare('SELECT re_match(?, ?, ?) AS r').get(source, flags, input) as { r: number };
      expect([0, 1]).toContain(r.r);
    }
  });
});
