/**
 * The indexes a collection needs, derived from its definition, so the index DDL and the compiled
 * queries use the very same `propertyExpression`: over a key column where the table has one, else
 * over the `json_extract` expression (expressions.ts).
 */
import { propertyPaths, type ObjectDef } from '../../../src-shared/schema/types.js';
import { NO_KEY_COLUMNS, propertyExpression, quoteTable, type KeyColumns } from './expressions.js';

export interface IndexedExpression {
  /** Property path as callers write it (`name.last`, `updater`). */
  path: string;
  /** The path inside the document the index reads (`updater._id` for a reference). */
  storagePath: string;
  unique: boolean;
}

/** Indexed scalar properties outside arrays; `_id` is excluded (its column is UNIQUE already). */
export function indexedExpressions(def: ObjectDef): IndexedExpression[] {
  return propertyPaths(def)
    .filter((p) => (p.def.indexed === true || p.def.unique === true) && !p.inArray && p.path !== '_id')
    .filter((p) => p.def.type !== 'Document' && p.def.type !== 'List')
    .map((p) => {
      const storagePath = p.def.type === 'Reference' ? `${p.path}._id` : p.path;
      return { path: p.path, storagePath, unique: p.def.unique === true };
    });
}

/**
 * The storage paths a new table of this definition gets key columns for (expressions.ts): those of
 * its non-unique indexes, single and compound. Paths with a unique index are left out: their
 * lookups (an account by email) must keep matching the unique expression index.
 */
export function keyColumnPaths(def: ObjectDef): string[] {
  const indexed = indexedExpressions(def);
  const unique = new Set(indexed.filter((e) => e.unique).map((e) => e.storagePath));
  const paths = [...indexed.filter((e) => !e.unique).map((e) => e.storagePath), ...(def.compoundIndexes ?? []).flat()];
  return [...new Set(paths)].filter((p) => p !== '_id' && !unique.has(p));
}

export interface IndexSpec {
  name: string;
  /** The property path a unique index guards (for faults that name it); the first path otherwise. */
  path: string;
  unique: boolean;
  sql: string;
}

/**
 * Every index of a collection table: one per indexed scalar property, and one per compound index
 * of the definition. Non-unique indexes end in `_id`, the tiebreaker of every sort
 * (`effectiveSort`), so a page sorted by the property — either direction — is one ordered index
 * walk rather than a sort of every record sharing a value.
 */
export function indexSpecs(table: string, def: ObjectDef, keyColumns: KeyColumns = NO_KEY_COLUMNS): IndexSpec[] {
  const quoted = quoteTable(table);
  const single = indexedExpressions(def).map(({ path, storagePath, unique }) => {
    const name = `${unique ? 'ux' : 'ix'}_${table}__${path.replace(/\./g, '_')}`;
    const key = propertyExpression(storagePath, keyColumns);
    const columns = unique ? key : `${key}, _id`;
    const sql = `CREATE ${unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quoteTable(name)} ON ${quoted} (${columns})`;
    return { name, path, unique, sql };
  });
  const compound = (def.compoundIndexes ?? []).map((paths) => {
    const name = `ix_${table}__c_${paths.join('_').replace(/\./g, '_')}`;
    const columns = [...paths.map((p) => propertyExpression(p, keyColumns)), '_id'].join(', ');
    return {
      name,
      path: paths[0] ?? '',
      unique: false,
      sql: `CREATE INDEX IF NOT EXISTS ${quoteTable(name)} ON ${quoted} (${columns})`,
    };
  });
  return [...single, ...compound];
}

/**
 * Whether an index of `table` is named like the ones `indexSpecs` makes (so a definition may ask
 * for it or stop asking), rather than one SQLite made for the `_id` UNIQUE constraint.
 */
export function isDefinitionIndex(table: string, name: string): boolean {
  return name.startsWith(`ix_${table}__`) || name.startsWith(`ux_${table}__`);
}

/** `CREATE [UNIQUE] INDEX IF NOT EXISTS` statements for a collection table. */
export function indexStatements(table: string, def: ObjectDef, keyColumns: KeyColumns = NO_KEY_COLUMNS): string[] {
  return indexSpecs(table, def, keyColumns).map((s) => s.sql);
}
