/**
 * "Save as view" from the object browser: the current query's where conditions, each of which may
 * become a view variable, and the view's `where` text with `{{name}}` where a variable was chosen.
 * A string value becomes a quoted variable (it stays a value and cannot add operators); any other
 * value a bare one, which the service parses as JSON (views/template.ts on the service side).
 */

export interface WhereCondition {
  /** Stable id: the JSON path of the value inside `where`. */
  id: string;
  /** Path from the where document's root to the value (`["c_count", "$gt"]`). */
  path: string[];
  /** What the condition reads like: `c_status = "open"`, `c_count $gt 3`. */
  label: string;
  value: unknown;
  /** A name for its variable, from the property (and the operator when there is one). */
  suggestedName: string;
  /** `$and` / `$or` groups are kept as they are; only plain conditions can become variables. */
  variable: boolean;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const variableName = (parts: string[]) =>
  parts
    .join('_')
    .replace(/[^A-Za-z0-9_]/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(?=\d)/, 'v')
    .slice(0, 64) || 'value';

/** The where document's conditions in order; operators of one property are separate conditions. */
export function whereConditions(where: Record<string, unknown> | undefined): WhereCondition[] {
  const out: WhereCondition[] = [];
  for (const [field, value] of Object.entries(where ?? {})) {
    if (field.startsWith('$')) {
      out.push({
        id: field,
        path: [field],
        label: `${field} ${JSON.stringify(value)}`,
        value,
        suggestedName: variableName([field]),
        variable: false,
      });
      continue;
    }
    const operators =
      isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => k.startsWith('$'));
    if (operators) {
      for (const [op, operand] of Object.entries(value)) {
        out.push({
          id: JSON.stringify([field, op]),
          path: [field, op],
          label: `${field} ${op} ${JSON.stringify(operand)}`,
          value: operand,
          suggestedName: variableName([field.split('.').at(-1)!, op.slice(1)]),
          variable: true,
        });
      }
    } else {
      out.push({
        id: JSON.stringify([field]),
        path: [field],
        label: `${field} = ${JSON.stringify(value)}`,
        value,
        suggestedName: variableName([field.split('.').at(-1)!]),
        variable: true,
      });
    }
  }
  return out;
}

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const MARK = '\u0000view-variable:';

/**
 * The `where` text of the view: the browser's where with each chosen condition's value replaced
 * by its variable. The markers go into the tree, not the text, so nothing the user typed can be
 * mistaken for one.
 */
export function whereTemplate(where: Record<string, unknown>, variables: { path: string[]; name: string }[]): string {
  const tree = structuredClone(where);
  for (const { path, name } of variables) {
    let node: Record<string, unknown> = tree;
    for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
    const last = path.at(-1)!;
    const quoted = typeof node[last] === 'string';
    node[last] = `${MARK}${quoted ? 'q' : 'b'}:${name}`;
  }
  return JSON.stringify(tree).replace(
    /"\\u0000view-variable:([qb]):([A-Za-z_][A-Za-z0-9_]*)"/g,
    (_m, kind: string, name: string) => (kind === 'q' ? `"{{${name}}}"` : `{{${name}}}`),
  );
}

/** The run arguments that give the browser's own result: each variable's current value as text. */
export function currentArguments(conditions: WhereCondition[], chosen: Map<string, string>): Record<string, string> {
  const args: Record<string, string> = {};
  for (const c of conditions) {
    const name = chosen.get(c.id);
    if (name !== undefined) args[name] = typeof c.value === 'string' ? c.value : JSON.stringify(c.value);
  }
  return args;
}
