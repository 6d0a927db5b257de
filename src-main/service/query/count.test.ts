/**
 * A count (the console's pager total, `db/count`, an export's total) is compiled without the list's
 * sort and limit (issue 43): it must give the evaluator's count, and SQLite must answer it from an
 * index alone instead of reading every matching record's `doc` in sort order.
 */
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { THING_DEF } from '../../../src-shared/query/testing/fixture-def.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { runListQuery } from '../../../src-shared/query/evaluate.js';
import { compileCountQuery } from './compile.js';
import { registerQueryFunctions } from './functions.js';
import { indexStatements } from './indexes.js';
import { propertyExpression } from './expressions.js';
import { sql } from './sql-fragment.js';
import { Rng } from '../demo/random.js';

function fixture() {
  const db = new Database(':memory:');
  registerQueryFunctions(db);
  db.exec('CREATE TABLE things (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL)');
  for (const statement of indexStatements('things', THING_DEF)) db.exec(statement);
  db.exec(`CREATE INDEX things_last ON things (${propertyExpression('name.last')})`);
  const rng = new Rng(11);
  const docs = Array.from({ length: 500 }, (_, i) => ({
    _id: i.toString(16).padStart(24, '0'),
    name: { last: rng.pick(['smith', 'Smith', 'ſtone', 'Brown', 'Young', 'Sanchez']), first: rng.pick(['Ann', 'bo']) },
    c_int: rng.int(5),
  }));
  const insert = db.prepare('INSERT INTO things (_id, doc) VALUES (?, ?)');
  for (const { _id, ...doc } of docs) insert.run(_id, JSON.stringify(doc));
  db.exec('ANALYZE');
  return { db, docs };
}

const parsed = (where?: unknown) =>
  parseListQuery({ ...(where ? { where: JSON.stringify(where) } : {}), limit: '1000' }, THING_DEF);

describe('compileCountQuery', () => {
  const { db, docs } = fixture();
  const count = (where: unknown, extraWhere = [] as ReturnType<typeof sql>[]) => {
    const c = compileCountQuery(parsed(where).where, { table: 'things', extraWhere });
    return (db.prepare(c.sql).get(...c.params) as { n: number }).n;
  };
  const plan = (where?: unknown) => {
    const c = compileCountQuery(parsed(where).where, { table: 'things' });
    return (db.prepare(`EXPLAIN QUERY PLAN ${c.sql}`).all(...c.params) as { detail: string }[])
      .map((r) => r.detail)
      .join(' | ');
  };

  it.each([
    undefined,
    { c_int: { $gte: 2 } },
    { 'name.last': { $regex: '/^s/i' } },
    { $and: [{ 'name.last': { $regex: '/^s/i' } }, { c_int: { $lt: 3 } }] },
    { 'name.last': { $in: ['Brown', 'Young'] } },
  ])('counts what the evaluator matches: %j', (where) => {
    const expected = runListQuery(docs, parsed(where)).data.length;
    expect(expected).toBeGreaterThan(0);
    expect(count(where)).toBe(expected);
  });

  it("ANDs the service's conditions (access, context) with the query's, in both shapes", () => {
    const odd = sql(`json_extract(doc, '$.c_int') IN (?, ?)`, 1, 3);
    const expected = (where: unknown) =>
      runListQuery(docs, parsed(where)).data.filter((d) => [1, 3].includes(d.c_int as number)).length;
    expect(count(undefined, [odd])).toBe(expected(undefined));
    const prefix = { 'name.last': { $regex: '/^s/i' } };
    expect(count(prefix, [odd])).toBe(expected(prefix));
    expect(expected(prefix)).toBeLessThan(expected(undefined));
  });

  it('reads an index alone, never the records in sort order', () => {
    // Unconditioned: the smallest index is counted, no table row is read.
    expect(plan()).toMatch(/^SCAN things USING COVERING INDEX [^|]*$/);
    // A case-insensitive prefix: one range of the name index per case variant, each covering.
    const prefix = plan({ 'name.last': { $regex: '/^s/i' } });
    const reads = prefix.split(' | ').filter((l) => /^(SCAN|SEARCH) things\b/.test(l));
    expect(reads).toHaveLength(3);
    for (const read of reads) expect(read).toMatch(/^SEARCH things USING COVERING INDEX things_last /);
    expect(prefix).not.toContain('TEMP B-TREE');
  });
});
