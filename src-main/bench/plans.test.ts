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
import {
  accountIndex,
  FLOOR_PLANS,
  floorSql,
  hasKeyColumns,
  listArgs,
  Q3_RANGE,
  QA_PIPELINE,
  QM_PIPELINE,
  type ListArgs,
} from './workloads.js';
import { parsePipeline } from '../../src-shared/query/pipeline/parse-pipeline.js';
import { recordProperties } from '../../src-shared/query/pipeline/shape.js';
import { compilePipeline } from '../service/query/pipeline/compile-pipeline.js';
import { indexStatements } from '../service/query/indexes.js';
import { readKeyColumns } from '../service/objects/key-columns.js';

let h: Harness;
let def: ObjectDef;
let table: string;
/** The same accounts in a table as versions before key columns made it: expression indexes only. */
const LEGACY = 'legacy_account';

beforeAll(async () => {
  h = await createHarness();
  const org = h.svc.orgs.byCode('demo')!;
  await seedOrg(h.svc, org, { accounts: 3000, seed: 7 });
  def = h.svc.defs.byName(org.id, 'account')!;
  table = h.svc.store.ensureCollection(org.id, def);
  h.svc.db.exec(`CREATE TABLE ${LEGACY} (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL)`);
  h.svc.db.exec(`INSERT INTO ${LEGACY} (_id, doc) SELECT _id, doc FROM "${table}"`);
  for (const statement of indexStatements(LEGACY, def)) h.svc.db.exec(statement);
  h.svc.db.exec('ANALYZE');
}, 60_000);
afterAll(async () => h.close());

/** Each table shape: a table made now (key columns) and one made before they existed. */
const shapes: [name: string, table: () => string][] = [
  ['a table with key columns', () => table],
  ['a table from before key columns (expression indexes)', () => LEGACY],
];

const compiled = (t: string, args: ListArgs) =>
  compileListQuery(parseListQuery({ ...args }, def), { table: t, columns: readKeyColumns(h.svc.db, t) });

it('gives tables made now key columns, and finds none in the older table', () => {
  expect([...readKeyColumns(h.svc.db, table).keys()]).toEqual(expect.arrayContaining(['name.last', 'created']));
  expect(hasKeyColumns(h.svc.db, table)).toBe(true);
  expect(readKeyColumns(h.svc.db, LEGACY).size).toBe(0);
  expect(hasKeyColumns(h.svc.db, LEGACY)).toBe(false);
});

const workloads: [name: string, args: () => ListArgs, index: (t: string) => string, mergeSorts: number][] = [
  // One ordered walk per case variant of the prefix, merged in order: nothing is sorted.
  ['Q1 name.last /^s/i, sort last, first', listArgs.q1, accountIndex.lastFirst, 0],
  ['Q2 first page, sort _id', () => listArgs.q2(), accountIndex.id, 0],
  ['Q2 page after an _id', () => listArgs.q2('000000000000000000000100'), accountIndex.id, 0],
  ['Q3 created range, sort created desc', listArgs.q3, accountIndex.created, 0],
  ['Q4 skip 300, sort name.last', listArgs.q4, accountIndex.last, 0],
];

describe.each(shapes)('the service compiles each bench workload to an index walk, on %s', (_shape, tableOf) => {
  it.each(workloads)('%s', (_name, args, index, mergeSorts) => {
    const t = tableOf();
    const { sql, params } = compiled(t, args());
    const { lines, problems } = checkPlan(queryPlan(h.svc.db, sql, params), t, index(t), mergeSorts);
    expect(problems, lines.join('\n')).toEqual([]);
  });

  it('gives the same records on both table shapes', () => {
    for (const [, args] of workloads) {
      const ids = (t: string) => {
        const { sql, params } = compiled(t, args());
        return (h.svc.db.prepare(sql).all(...params) as { _id: string }[]).map((r) => r._id);
      };
      expect(ids(tableOf())).toEqual(ids(table));
    }
  });

  it('merges the union branches in index order, sorting nothing (issue 43)', () => {
    const t = tableOf();
    const { sql, params } = compiled(t, listArgs.q1());
    const lines = queryPlan(h.svc.db, sql, params);
    expect(lines.filter((l) => l.includes(`USING INDEX ${accountIndex.lastFirst(t)}`))).toHaveLength(3);
    expect(lines.filter((l) => l === 'MERGE (UNION ALL)')).toHaveLength(2); // three branches, two merges
    expect(lines.filter((l) => l.includes('USE TEMP B-TREE'))).toEqual([]);
  });
});

describe.each(shapes)("the floor's hand-written SQL, on %s", (_shape, tableOf) => {
  it("uses the service's indexes, with no sort", () => {
    const t = tableOf();
    const sql = floorSql(t, hasKeyColumns(h.svc.db, t));
    const params: Record<keyof typeof sql, unknown[]> = {
      q1: [],
      q2first: [],
      q2: ['0'],
      q3: [Q3_RANGE.from, Q3_RANGE.to],
      q4: [],
      q5: ['0'],
      qa: [],
      qm: [Q3_RANGE.from],
    };
    for (const key of Object.keys(sql) as (keyof typeof sql)[]) {
      const { lines, problems } = checkPlan(
        queryPlan(h.svc.db, sql[key], params[key]),
        t,
        FLOOR_PLANS[key](t),
        key === 'qm' ? 1 : 0, // QM groups by month in a sorter; Q1 merges in index order,
      );
      expect(problems, `${key}:\n${lines.join('\n')}`).toEqual([]);
    }
  });
});

describe.each(shapes)('the aggregation workloads (issue 42), on %s', (_shape, tableOf) => {
  const pipelines: [name: string, pipeline: unknown[], index: (t: string) => string, sorts: number][] = [
    ['QA $group by name.last, $count', QA_PIPELINE, accountIndex.last, 0],
    ['QM $match created, $group by month', QM_PIPELINE, accountIndex.created, 1],
  ];
  const compiledPipeline = (t: string, pipeline: unknown[]) =>
    compilePipeline(parsePipeline(pipeline, def), {
      table: t,
      columns: readKeyColumns(h.svc.db, t),
      properties: recordProperties(def, 'all'),
      pruned: false,
      skip: 0,
      limit: 100,
    });

  it.each(pipelines)(
    '%s reads the intended index and sorts no more than the hand SQL',
    (_n, pipeline, index, sorts) => {
      const t = tableOf();
      const { sql, params } = compiledPipeline(t, pipeline);
      const { lines, problems } = checkPlan(queryPlan(h.svc.db, sql, params), t, index(t), sorts);
      expect(problems, lines.join('\n')).toEqual([]);
    },
  );

  it('answers what the hand-written SQL answers', () => {
    const t = tableOf();
    const hand = floorSql(t, hasKeyColumns(h.svc.db, t));
    for (const [key, pipeline] of [
      ['qa', QA_PIPELINE],
      ['qm', QM_PIPELINE],
    ] as const) {
      const { sql, params } = compiledPipeline(t, pipeline);
      const service = (h.svc.db.prepare(sql).all(...params) as { doc: string }[]).map(
        (r) => JSON.parse(r.doc) as unknown,
      );
      const floor = (
        h.svc.db.prepare(hand[key]).all(...(key === 'qm' ? [Q3_RANGE.from] : [])) as { k: unknown; n: number }[]
      ).map((r) => (r.k === null ? { count: r.n } : { _id: r.k, count: r.n }));
      expect(service.length).toBeGreaterThan(0);
      expect(service).toEqual(floor);
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
