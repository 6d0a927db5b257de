/** `$project` → a sub-select building the new document with `json_object`. */
import type { OutputField } from '../../../../src-shared/query/pipeline/ast.js';
import { joinFragments, sql, type SqlFragment } from '../sql-fragment.js';
import { compileExpr, render, type Reader } from './compile-expression.js';
import { readerOf, wrapState, type State } from './state.js';

export function compileProject(state: State, fields: OutputField[]): State {
  const reader = readerOf(state);
  const idField = fields.find((f) => f.name === '_id' && f.kind === 'value');
  return wrapState(state, {
    doc: documentOf(fields, reader),
    id: idField && idField.kind === 'value' ? compileExpr(idField.expr, reader) : sql('NULL'),
  });
}

function documentOf(fields: OutputField[], reader: Reader): SqlFragment {
  const members = fields.map((f) => {
    // Names match OUTPUT_NAME_PATTERN (letters, digits, _): safe between quotes.
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name)) throw new Error(`Invalid output name ${f.name}.`);
    const value = f.kind === 'value' ? render(compileExpr(f.expr, reader), f.expr.type) : documentOf(f.fields, reader);
    return { sql: `'${f.name}', ${value.sql}`, params: value.params };
  });
  const joined = joinFragments(members, ', ');
  return { sql: `json_object(${joined.sql})`, params: joined.params };
}
