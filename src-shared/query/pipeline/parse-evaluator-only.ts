/**
 * Operators and variables of the original's expression engine that only the in-memory evaluator
 * runs: a decorated trigger's `if` (docs/scripting.md#triggers) may use `$toBool`, `$find`,
 * `$reduce`, `$cache`, `$let` and variables (`$$this`, `$$value`, `$$ROOT`, `$$CURRENT`, a
 * `$let`/`$find` name). `GET /<objects>?pipeline=` compiles to SQL, where none of them has a
 * meaning (`$cache` reads the run's org cache), so there they are refused by name.
 *
 * TRUST BOUNDARY: the operand is untrusted JSON (a library's decorator options); key counts and
 * variable names are checked here, the evaluation is bounded by evaluate-evaluator-only.ts.
 */
import { childPath, queryFault, unsupportedFault } from '../faults.js';
import { isJsonObject, type JsonValue } from '../json.js';
import { MAX_EXPRESSION_KEYS } from '../limits.js';
import type { Expr, ExprOperator, ValueType } from './ast.js';

export const EVALUATOR_ONLY: ReadonlySet<string> = new Set(['$toBool', '$find', '$reduce', '$cache', '$let']);

/** The internal form of a variable (`'$$this.a'` becomes `{ $$variable: 'this.a' }`). */
export const VARIABLE_OPERATOR = '$$variable';

/** Variables in scope and their types; present only where evaluator-only expressions are allowed. */
export type Variables = ReadonlyMap<string, ValueType>;

export type ParseWith = (value: JsonValue, variables: Variables, path: string, depth: number) => Expr;

const ANY: ValueType = { type: 'Any' };
/** The original's user variable names: a lowercase letter, then letters, digits and `_`. */
const USER_VARIABLE = /^[a-z][a-zA-Z0-9_]{0,39}$/;

/**
 * Parses `{op: operand}` when `op` is evaluator-only; undefined for any other operator.
 * `variables` undefined: a pipeline, where each is refused naming it.
 */
export function parseEvaluatorOnly(
  op: string,
  operand: JsonValue,
  variables: Variables | undefined,
  parse: ParseWith,
  path: string,
  depth: number,
): Expr | undefined {
  if (!EVALUATOR_ONLY.has(op) && op !== VARIABLE_OPERATOR) return undefined;
  if (!variables) {
    throw unsupportedFault(
      `${op === VARIABLE_OPERATOR ? 'Variables are' : `The expression operator ${op} is`} supported only in a trigger's if, not in a pipeline.`,
      path,
    );
  }
  const sub = (value: JsonValue, key: string, vars: Variables = variables) =>
    parse(value, vars, childPath(path, key), depth + 1);
  switch (op) {
    case VARIABLE_OPERATOR:
      return variable(operand, variables, path);
    case '$toBool':
    case '$cache': {
      const value = single(operand, op, path);
      const arg = parse(value, variables, path, depth + 1);
      return node(op, [arg], op === '$toBool' ? { type: 'Boolean' } : ANY);
    }
    case '$find': {
      const o = fields(operand, op, ['input', 'as', 'cond'], ['input', 'cond'], path);
      const as = o.as === undefined ? 'this' : userVariable(o.as, childPath(path, 'as'));
      const input = sub(o.input!, 'input');
      const element = elementType(input.type, op, childPath(path, 'input'));
      const cond = sub(o.cond!, 'cond', new Map(variables).set(as, element));
      return node(op, [input, cond], element, [as]);
    }
    case '$reduce': {
      const o = fields(operand, op, ['input', 'initialValue', 'in'], ['input', 'initialValue', 'in'], path);
      const input = sub(o.input!, 'input');
      const element = elementType(input.type, op, childPath(path, 'input'));
      const initial = sub(o.initialValue!, 'initialValue');
      // $$value takes the type of each step's result, known only when evaluated.
      const step = sub(o.in!, 'in', new Map(variables).set('this', element).set('value', ANY));
      return node(op, [input, initial, step], ANY);
    }
    default: {
      const o = fields(operand, op, ['vars', 'in'], ['vars', 'in'], path);
      if (!isJsonObject(o.vars))
        throw queryFault('$let takes vars as an object of expressions.', childPath(path, 'vars'));
      if (Object.keys(o.vars).length > MAX_EXPRESSION_KEYS) {
        throw queryFault(`$let takes at most ${MAX_EXPRESSION_KEYS} variables.`, childPath(path, 'vars'));
      }
      const names: string[] = [];
      const values: Expr[] = [];
      const inner = new Map(variables);
      for (const [name, value] of Object.entries(o.vars)) {
        const at = childPath(childPath(path, 'vars'), name);
        names.push(userVariable(name, at));
        const parsed = parse(value as JsonValue, variables, at, depth + 2);
        values.push(parsed);
        inner.set(name, parsed.type);
      }
      const body = sub(o.in!, 'in', inner);
      return node(op, [...values, body], body.type, names);
    }
  }
}

function node(op: string, args: Expr[], type: ValueType, names?: string[]): Expr {
  return { kind: 'op', op: op as ExprOperator, args, type, ...(names ? { options: { names } } : {}) };
}

/** `{$toBool: x}` or `{$toBool: [x]}`. */
function single(operand: JsonValue, op: string, path: string): JsonValue {
  if (!Array.isArray(operand)) return operand;
  if (operand.length !== 1) throw queryFault(`${op} takes 1 argument.`, path);
  return operand[0]!;
}

function fields(
  operand: JsonValue,
  op: string,
  allowed: string[],
  required: string[],
  path: string,
): Record<string, JsonValue | undefined> {
  if (!isJsonObject(operand)) throw queryFault(`${op} takes {${allowed.join(', ')}}.`, path);
  const extra = Object.keys(operand).find((k) => !allowed.includes(k));
  if (extra !== undefined) throw queryFault(`${op} does not take ${extra.slice(0, 40)}.`, childPath(path, extra));
  const missing = required.find((k) => operand[k] === undefined);
  if (missing !== undefined) throw queryFault(`${op} takes ${missing}.`, path);
  return operand as Record<string, JsonValue | undefined>;
}

function userVariable(name: unknown, path: string): string {
  if (typeof name !== 'string' || !USER_VARIABLE.test(name)) {
    throw queryFault(
      `${String(name).slice(0, 40)} is not a variable name (a lowercase letter, then letters, digits and _).`,
      path,
    );
  }
  return name;
}

/** The type of an array's elements; `Any` when the array's type is known only when evaluated. */
function elementType(type: ValueType, op: string, path: string): ValueType {
  if (type.type === 'Any' || type.type === 'Null') return ANY;
  if (!type.array) throw queryFault(`${op} takes an array as input.`, path);
  return { type: type.type, ...(type.properties ? { properties: type.properties } : {}) };
}

function variable(operand: JsonValue, variables: Variables, path: string): Expr {
  if (typeof operand !== 'string') throw queryFault('A variable is named by text.', path);
  const dot = operand.indexOf('.');
  const name = dot < 0 ? operand : operand.slice(0, dot);
  const type = variables.get(name);
  if (!type) {
    const known = [...variables.keys()].map((k) => `$$${k}`).join(', ');
    throw queryFault(`$$${name.slice(0, 40)} is not a variable here (${known}).`, path);
  }
  const rest = dot < 0 ? '' : operand.slice(dot + 1);
  return { kind: 'variable', name, path: rest, type: rest === '' ? type : ANY };
}
