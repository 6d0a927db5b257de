/**
 * The expression indexes a collection needs, derived from its definition, so the index DDL and
 * the compiled queries use the very same `propertyExpression`.
 */
import { propertyPaths, type ObjectDef } from '../../../src-shared/schema/types.js';
import { propertyExpression, quoteTable } from './expressions.js';

export interface IndexedExpression {
  /** Property path as callers write it (`name.last`, `updater`). */
  path: string;
  /** SQL expression indexed (`json_extract(doc, '$.updater._id')`). */
  expression: string;
  unique: boolean;
}

/** Indexed scalar properties outside arrays; `_id` is excluded (its column is UNIQUE already). */
export function indexedExpressions(def: ObjectDef): IndexedExpression[] {
  return propertyPaths(def)
    .filter((p) => (p.def.indexed === true || p.def.unique === true) && !p.inArray && p.path !== '_id')
    .filter((p) => p.def.type !== 'Document' && p.def.type !== 'List')
    .map((p) => ({
      path: p.path,
      expression: propertyExpression(p.def.type === 'Reference' ? `${p.path}._id` : p.path),
      unique: p.def.unique === true,
    }));
}

/** `CREATE [UNIQUE] INDEX IF NOT EXISTS` statements for a collection table. */
export function indexStatements(table: string, def: ObjectDef): string[] {
  const quoted = quoteTable(table);
  return indexedExpressions(def).map(({ path, expression, unique }) => {
    const name = quoteTable(`${table}__${path.replace(/\./g, '__')}`);
    return `CREATE ${unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${name} ON ${quoted} (${expression})`;
  });
}
