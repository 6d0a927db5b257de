/**
 * The bench's list workloads, compiled to SQL exactly as the service compiles them (parse the
 * query-string arguments, then `compileListQuery` on the org's account table, as `ObjectStore.list`
 * does), must be index walks: `EXPLAIN QUERY PLAN` on seeded accounts names the intended index and
 * shows no temporary B-tree for sorting. The floor's hand-written SQL must be served by the same
 * indexes the service creates. An org administrator's list has no read condition (`acl.ts`), so the
 * SQL below is what the bench's session, token and signed callers run. Q5 (read by `_id`) is not
 * compiled; the floor's check covers its plan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../src-shared/schema/types.js';
import { parseListQuery } from '../../src-shared/query/parse.js';
import { compileListQuery } from '../service/query/compile.js';
import { seedOrg } from '../service/demo/seeder.js';
import { createHarness, type Harness } from '../service/testing/harness.js';
import { checkPlan, queryPlan } from './query-plan.js';
import { accountIndex, FLOOR_PLANS, floorSql, listArgs, Q3_RANGE, type ListArgs } from './workloads.js';

let h: Harness;
let def: ObjectDef;
let table: string;

beforeAll(async () => {
  h = await createHarness();
  const org = h.svc.orgs.byCode('demo')!;
  await seedOrg(h.svc, org, { accounts: 3000, seed: 7 });
  def = h.svc.defs.byName(org.id, 'account')!;
  table = h.svc.store.ensureCollection(org.id, def);
}, 60_000);
afterAll(async () => h.close());

const compiled = (args: ListArgs) => compileListQuery(parseListQuery({ ...args }, def), { table });

const workloads: [name: string, args: () => ListArgs, index: (t: string) => string, mergeSorts: number][] = [
  // One ordered walk per case variant of the prefix; their at most 3 × 101 rows are merged by one sort.
  ['Q1 name.last /^s/i, sort last, first', listArgs.q1, accountIndex.lastFirst, 1],
  ['Q2 first page, sort _id', () => listArgs.q2(), accountIndex.id, 0],
  ['Q2 page after an _id', () => listArgs.q2('000000000000000000000100'), accountIndex.id, 0],
  ['Q3 created range, sort created desc', listArgs.q3, accountIndex.created, 0],
  ['Q4 skip 300, sort name.last', listArgs.q4, accountIndex.last, 0],
];

describe('the service compiles each bench workload to an index walk', () => {
  it.each(workloads)('%s', (_name, args, index, mergeSorts) => {
    const { sql, params } = compiled(args());
    const { lines, problems } = checkPlan(queryPlan(h.svc.db, sql, params), table, index(table), mergeSorts);
    expect(problems, lines.join('\n')).toEqual([]);
  });

  it('runs the union branches without a sort of their own (only the merge of the branches sorts)', () => {
    const { sql, params } = compiled(listArgs.q1());
    const lines = queryPlan(h.svc.db, sql, params);
    expect(lines.filter((l) => l.includes(`USING INDEX ${accountIndex.lastFirst(table)}`))).toHaveLength(3);
    expect(lines.filter((l) => l.includes('USE TEMP B-TREE'))).toEqual(['USE TEMP B-TREE FOR ORDER BY']);
    expect(lines.at(-1)).toBe('USE TEMP B-TREE FOR ORDER BY'); // the outer ORDER BY, after the branches
  });
});

describe("the floor's hand-written SQL", () => {
  it("uses the service's indexes, with no sort beyond the prefix merge", () => {
    const sql = floorSql(table);
    const params: Record<keyof typeof sql, unknown[]> = {
      q1: [],
      q2first: [],
      q2: ['0'],
      q3: [Q3_RANGE.from, Q3_RANGE.to],
      q4: [],
      q5: ['0'],
    };
    for (const key of Object.keys(sql) as (keyof typeof sql)[]) {
      const { lines, problems } = checkPlan(
        queryPlan(h.svc.db, sql[key], params[key]),
        table,
        FLOOR_PLANS[key](table),
        key === 'q1' ? 1 : 0,
      );
      expect(problems, `${key}:\n${lines.join('\n')}`).toEqual([]);
    }
  });
});

describe('checkPlan', () => {
  it('reports a sort in a temporary B-tree and a read through another index', () => {
    const sortByUnindexed = `SELECT _id, doc FROM "${table}" ORDER BY json_extract(doc, '$.shared') LIMIT 10`;
    const check = checkPlan(queryPlan(h.svc.db, sortByUnindexed, []), table, accountIndex.id(table));
    expect(check.problems.join('\n')).toMatch(/does not use sqlite_autoindex/);
    expect(check.problems.join('\n')).toMatch(/temporary B-tree/);
  });
});
