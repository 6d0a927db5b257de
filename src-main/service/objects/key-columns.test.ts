import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { openDatabase, type Db } from '../db/open.js';
import { ManualClock } from '../clock.js';
import { compileListQuery } from '../query/compile.js';
import { indexStatements, keyColumnPaths } from '../query/indexes.js';
import { ObjectStore } from './store.js';
import { readKeyColumns } from './key-columns.js';

const WIDGET: ObjectDef = {
  name: 'c_widget',
  collection: 'c_widgets',
  label: 'Widget',
  custom: true,
  properties: [
    { name: 'c_code', type: 'String', unique: true },
    { name: 'c_name', type: 'String', indexed: true },
    { name: 'c_size', type: 'Number', indexed: true },
    { name: 'c_maker', type: 'Reference', refObject: 'account', indexed: true },
    { name: 'c_note', type: 'String' },
  ],
  compoundIndexes: [['c_name', 'c_size']],
};

let db: Db;
let store: ObjectStore;
beforeEach(() => {
  db = openDatabase({ file: ':memory:' });
  store = new ObjectStore(db, new ManualClock(1_700_000_000_000));
});
afterEach(() => db.close());

const indexSql = (table: string) =>
  (
    db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
      .all(table) as {
      name: string;
      sql: string;
    }[]
  ).map((r) => r.sql);

/** The plan's lines for a list of widgets with this query, compiled as `store.list` compiles it. */
function plan(args: Record<string, string>): string {
  const query = parseListQuery(args, WIDGET);
  const table = store.ensureCollection(1, WIDGET);
  const { sql, params } = compileListQuery(query, { table, columns: store.keyColumns(1, WIDGET) });
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
    .map((r) => r.detail)
    .join('\n');
}

const MAKERS = ['0000000000000000000000a0', '0000000000000000000000a1', '0000000000000000000000a2'];

function insertWidgets() {
  for (const [i, name] of ['b', 'a', 'c'].entries()) {
    store.insert(1, WIDGET, { c_code: `w${i}`, c_name: name, c_size: 3 - i, c_maker: { _id: MAKERS[i]! } });
  }
}

const names = (args: Record<string, string>) =>
  store.list(1, WIDGET, parseListQuery(args, WIDGET)).rows.map((r) => r.doc.c_name);

describe('key columns', () => {
  it("are made for a new table's non-unique index paths, and its indexes are built over them", () => {
    expect(keyColumnPaths(WIDGET).sort()).toEqual(['c_maker._id', 'c_name', 'c_size', 'created', 'updated'].sort());
    const table = store.ensureCollection(1, WIDGET);
    expect([...readKeyColumns(db, table).keys()].sort()).toEqual(keyColumnPaths(WIDGET).sort());
    const sql = indexSql(table);
    expect(sql.find((s) => s.includes('ix_o1_c_widget__c_name"'))).toContain('"k.c_name", _id');
    expect(sql.find((s) => s.includes('__c_c_name_c_size'))).toContain('"k.c_name", "k.c_size", _id');
    // The unique path keeps its expression index (lookups by it name the expression).
    expect(sql.find((s) => s.includes('ux_o1_c_widget__c_code'))).toContain("json_extract(doc, '$.c_code')");
  });

  it('are what queries on such a table filter and sort by, through those indexes', () => {
    insertWidgets();
    expect(plan({ sort: '{"c_name":1}' })).toMatch(/USING INDEX ix_o1_c_widget__c_name\b/);
    expect(plan({ where: '{"c_size":{"$gt":1}}', sort: '{"c_size":-1}' })).toMatch(
      /USING INDEX ix_o1_c_widget__c_size\b/,
    );
    expect(plan({ sort: '{"c_name":1}' })).not.toMatch(/TEMP B-TREE/);
    expect(names({ sort: '{"c_name":1}' })).toEqual(['a', 'b', 'c']);
    expect(names({ where: '{"c_size":{"$gte":2}}', sort: '{"c_size":1}' })).toEqual(['a', 'b']);
    expect(names({ where: JSON.stringify({ c_maker: MAKERS[2] }) })).toEqual(['c']);
  });

  it('follow every write: an update moves the record in the index', () => {
    insertWidgets();
    const [first] = store.list(1, WIDGET, parseListQuery({ sort: '{"c_name":1}' }, WIDGET)).rows;
    store.update(1, WIDGET, first!._id, { c_name: 'z' });
    expect(names({ sort: '{"c_name":1}' })).toEqual(['b', 'c', 'z']);
  });

  it('are what getValues reads, giving what the document holds', () => {
    insertWidgets();
    const [first] = store.list(1, WIDGET, parseListQuery({ sort: '{"c_name":1}' }, WIDGET)).rows;
    const prepare = vi.spyOn(db, 'prepare');
    const values = store.getValues(1, WIDGET, first!._id, ['c_name', 'c_size', 'c_code', 'c_note']);
    expect(values).toEqual({ c_name: 'a', c_size: 2, c_code: 'w1', c_note: null });
    const sql = prepare.mock.calls.map(([text]) => text).find((text) => text.includes('AS v0'));
    expect(sql).toContain('"k.c_name" AS v0');
    expect(sql).toContain("json_extract(doc, '$.c_code') AS v2"); // a unique path has no key column
  });

  it('are absent from a table an earlier version made, which keeps its expression indexes', () => {
    db.exec('CREATE TABLE "o1_c_widget" (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL)');
    for (const statement of indexStatements('o1_c_widget', WIDGET)) db.exec(statement);
    insertWidgets();
    expect(store.keyColumns(1, WIDGET).size).toBe(0);
    expect(indexSql('o1_c_widget').find((s) => s.includes('ix_o1_c_widget__c_name"'))).toContain(
      "json_extract(doc, '$.c_name'), _id",
    );
    expect(plan({ sort: '{"c_name":1}' })).toMatch(/USING INDEX ix_o1_c_widget__c_name\b/);
    expect(names({ sort: '{"c_name":1}' })).toEqual(['a', 'b', 'c']);
  });

  it('give a property indexed later an expression index of its own, which its queries use', () => {
    store.ensureCollection(1, WIDGET);
    const later: ObjectDef = {
      ...WIDGET,
      properties: WIDGET.properties.map((p) => (p.name === 'c_note' ? { ...p, indexed: true } : p)),
    };
    store.insert(1, later, { c_code: 'w9', c_name: 'n', c_note: 'hello' });
    expect(store.keyColumns(1, later).has('c_note')).toBe(false);
    const query = parseListQuery({ where: '{"c_note":"hello"}' }, later);
    const table = store.ensureCollection(1, later);
    const { sql, params } = compileListQuery(query, { table, columns: store.keyColumns(1, later) });
    const lines = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
    expect(lines.join('\n')).toMatch(/USING INDEX ix_o1_c_widget__c_note\b/);
    expect(store.list(1, later, query).rows.map((r) => r.doc.c_code)).toEqual(['w9']);
  });
});
