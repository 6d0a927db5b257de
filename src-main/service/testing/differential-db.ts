/**
 * What the two differential tests (the list language, `query/differential.test.ts`, and
 * aggregation pipelines, `query/pipeline/differential.test.ts`) share: the pools random records
 * draw their ids from, the way records get unique ids, and the SQLite database both run the
 * compiled SQL on — one table as versions before key columns made tables (`things`) and one as
 * tables are made now (`things_k`), with the service's own indexes and query functions.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { THING_DEF } from '../../../src-shared/query/testing/fixture-def.js';
import { keyColumnDefinitions, readKeyColumns } from '../objects/key-columns.js';
import { registerQueryFunctions } from '../query/functions.js';
import { indexStatements } from '../query/indexes.js';

export type Doc = Record<string, unknown> & { _id: string };

/** Record ids: 40 fixed, distinct, spread over the id space. */
export const ID_POOL = Array.from({ length: 40 }, (_, i) =>
  ((i * 2654435761) % 2 ** 32).toString(16).padStart(24, '0'),
);
/** Ids for ObjectId-valued properties and references: few, so equal values meet often. */
export const OID_POOL = ['0123456789abcdef01234567', 'aaaaaaaaaaaaaaaaaaaaaaaa', 'ffffffffffffffffffffff00'];

/** Up to 25 records drawn from `record`, each given its own id from `ID_POOL`. */
export function recordsOf(record: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Doc[]> {
  return fc
    .array(record, { maxLength: 25 })
    .chain((rs) =>
      fc
        .uniqueArray(fc.constantFrom(...ID_POOL), { minLength: rs.length, maxLength: rs.length })
        .map((ids) => rs.map((r, i) => ({ _id: ids[i] as string, ...r }) as Doc)),
    );
}

/** The tables both tests compile against, both holding `docs`. */
export const DIFFERENTIAL_TABLES = ['things', 'things_k'] as const;

export function openDifferentialDb(docs: Doc[]): Database.Database {
  const db = new Database(':memory:');
  registerQueryFunctions(db);
  db.exec('CREATE TABLE things (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL)');
  for (const statement of indexStatements('things', THING_DEF)) db.exec(statement);
  db.exec(`CREATE TABLE things_k (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL${keyColumnDefinitions(THING_DEF)})`);
  for (const statement of indexStatements('things_k', THING_DEF, readKeyColumns(db, 'things_k'))) db.exec(statement);
  for (const table of DIFFERENTIAL_TABLES) {
    const insert = db.prepare(`INSERT INTO ${table} (_id, doc) VALUES (?, ?)`);
    for (const { _id, ...doc } of docs) insert.run(_id, JSON.stringify(doc));
  }
  return db;
}
