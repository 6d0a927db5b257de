/**
 * Variables in a view's query components. A component is JSON text in which `{{name}}` stands for
 * the request's query argument `name`:
 *   - quoted, as a whole string (`{"c_status": "{{status}}"}`): the argument's text, always a string;
 *   - inside a longer string (`"/^{{prefix}}/i"`): the argument's text, spliced in;
 *   - bare, where a JSON value goes (`{"c_count": {{n}}}`, `{"_id": {"$in": {{ids}}}}`, or a whole
 *     component `{{where}}`): the argument parsed as JSON (`?n=3`, `?ids=["a","b"]`,
 *     `?where={"c_status":"open"}`), or its text as a string when it is not JSON.
 * Values are substituted into the parsed tree, never into the text, so a quoted variable stays a
 * value and cannot add operators; only a bare one (the view's author chose it) takes structure.
 */
import { fault } from '../../../src-shared/faults.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}/g;
const WHOLE_VARIABLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}$/;
/** Marks a bare variable after the text is made valid JSON; a NUL cannot occur in parsed JSON text unescaped. */
const BARE = '\u0000var:';

export interface Template {
  /** The parsed component; bare variables are `BARE + name` strings, quoted ones `{{name}}` text. */
  tree: JsonValue;
  /** Every variable name, in first-seen order. */
  variables: string[];
  /** Where each whole-value variable sits, as query-fault paths (`where.c_status`). */
  locations: { name: string; path: string }[];
}

/** Parses a component's text; `root` is the component's name (`where`), the first segment of fault paths. */
export function parseTemplate(text: string, root: string): Template {
  let json: unknown;
  try {
    json = JSON.parse(markBareVariables(text));
  } catch (err) {
    throw fault('invalidArgument', 'query', {
      path: root,
      reason: `${root} is not JSON (variables are written {{name}}): ${(err as Error).message}`,
    });
  }
  const tree = json as JsonValue;
  const variables: string[] = [];
  const locations: { name: string; path: string }[] = [];
  walk(tree, root, (value, path) => {
    const bare = value.startsWith(BARE) ? value.slice(BARE.length) : undefined;
    const whole = bare ?? WHOLE_VARIABLE.exec(value)?.[1];
    if (whole !== undefined) locations.push({ name: whole, path });
    const names = bare !== undefined ? [bare] : [...value.matchAll(VARIABLE)].map((m) => m[1]!);
    for (const name of names) if (!variables.includes(name)) variables.push(name);
  });
  return { tree, variables, locations };
}

/** The component with every variable filled from `args`; a missing argument is `invalidArgument`. */
export function fillTemplate(template: Template, args: Record<string, unknown>): JsonValue {
  for (const name of template.variables) {
    if (typeof args[name] !== 'string') {
      throw fault('invalidArgument', 'viewVariable', {
        path: name,
        reason:
          args[name] === undefined
            ? `The view needs the argument ${name}.`
            : `The argument ${name} was given more than once.`,
      });
    }
  }
  return fill(template.tree, (name) => args[name] as string);
}

/** The same tree with every whole-value variable replaced by `value` (save-time validation). */
export function fillAll(template: Template, value: JsonValue): JsonValue {
  return fill(template.tree, () => '', value);
}

/**
 * The tree with the variables in `args` filled as a run fills them and every other one standing in
 * as `fillAll(template, null)` leaves it (null at a whole value, '' inside a longer string): the
 * save-time check of one variable's default (view-variables.ts).
 */
export function fillSome(template: Template, args: Record<string, string>): JsonValue {
  const given = (name: string) => (Object.prototype.hasOwnProperty.call(args, name) ? args[name] : undefined);
  const each = (tree: JsonValue): JsonValue => {
    if (typeof tree === 'string') {
      const bare = tree.startsWith(BARE) ? tree.slice(BARE.length) : undefined;
      if (bare !== undefined) return given(bare) === undefined ? null : asJson(given(bare)!);
      const whole = WHOLE_VARIABLE.exec(tree)?.[1];
      if (whole !== undefined) return given(whole) ?? null;
      return tree.replace(VARIABLE, (_all, name: string) => given(name) ?? '');
    }
    if (Array.isArray(tree)) return tree.map(each);
    if (tree !== null && typeof tree === 'object') {
      const out: { [key: string]: JsonValue } = {};
      for (const [k, v] of Object.entries(tree)) out[k] = each(v);
      return out;
    }
    return tree;
  };
  return each(template.tree);
}

function fill(tree: JsonValue, arg: (name: string) => string, whole?: JsonValue): JsonValue {
  if (typeof tree === 'string') {
    if (tree.startsWith(BARE)) return whole !== undefined ? whole : asJson(arg(tree.slice(BARE.length)));
    if (whole !== undefined && WHOLE_VARIABLE.test(tree)) return whole;
    return tree.replace(VARIABLE, (_all, name: string) => arg(name));
  }
  if (Array.isArray(tree)) return tree.map((v) => fill(v, arg, whole));
  if (tree !== null && typeof tree === 'object') {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(tree)) out[k] = fill(v, arg, whole);
    return out;
  }
  return tree;
}

function asJson(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** Quotes `{{name}}` written outside JSON strings so the text parses; inside strings it is left alone. */
function markBareVariables(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    if (c === '{' && text[i + 1] === '{') {
      const m = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}/.exec(text.slice(i));
      if (m) {
        out += JSON.stringify(BARE + m[1]!);
        i += m[0].length - 1;
        continue;
      }
    }
    out += c;
  }
  return out;
}

function walk(value: JsonValue, path: string, visit: (s: string, path: string) => void): void {
  if (typeof value === 'string') visit(value, path);
  else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`, visit));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`, visit);
  }
}
