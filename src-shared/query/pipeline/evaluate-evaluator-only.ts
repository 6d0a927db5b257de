/**
 * Evaluation of the evaluator-only operators and variables (parse-evaluator-only.ts) as the
 * original's expression engine runs them: `$toBool` is JavaScript's Boolean, `$find` the first
 * element of `input` whose `cond` holds (`$$this` or its `as` name bound to the element),
 * `$reduce` folds `in` over `input` from `initialValue` (`$$this`, `$$value`), `$let` binds its
 * `vars` for `in`, and `$cache` reads the run's org cache (text keys only; anything else, and a
 * missing key, is null).
 *
 * Bounded: an `input` array of at most MAX_ITERATED elements, and at most MAX_STEPS expression
 * evaluations per `if` (nested `$reduce`s multiply); past either, a fault naming the limit.
 */
import { queryFault } from '../faults.js';
import { readPath } from '../evaluate.js';
import type { Expr, ValueType } from './ast.js';

export const MAX_ITERATED = 1000;
export const MAX_STEPS = 100_000;

export interface EvalEnv {
  variables: ReadonlyMap<string, unknown>;
  /** The run's org cache (`require('cache').get`); absent: every `$cache` is null. */
  cache?: (key: string) => unknown;
  /** Evaluations left, shared by every scope of one evaluation. */
  budget: { left: number };
  /** How `$find` judges its `cond` (evaluate-expression.ts `truthy`, passed to stay acyclic). */
  truthy: (value: unknown, type: ValueType) => boolean;
}

type Evaluate = (expr: Expr, doc: Record<string, unknown>, env?: EvalEnv) => unknown;

export function spend(env: EvalEnv): void {
  if (--env.budget.left < 0) {
    throw queryFault(`An expression is evaluated in at most ${MAX_STEPS} steps.`, 'if');
  }
}

export function readVariable(expr: Extract<Expr, { kind: 'variable' }>, env: EvalEnv | undefined): unknown {
  const value = env?.variables.get(expr.name);
  if (expr.path === '') return value ?? null;
  return value !== null && typeof value === 'object'
    ? (readPath(value as Record<string, unknown>, expr.path) ?? null)
    : null;
}

function elements(value: unknown, op: string): unknown[] | undefined {
  if (value === null || value === undefined) return undefined;
  // The original reads a single value as an array of one.
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_ITERATED) {
    throw queryFault(`${op} reads arrays of at most ${MAX_ITERATED} elements; this one has ${list.length}.`, 'if');
  }
  return list;
}

export function evaluateEvaluatorOnly(
  expr: Extract<Expr, { kind: 'op' }>,
  doc: Record<string, unknown>,
  env: EvalEnv | undefined,
  evaluate: Evaluate,
): unknown {
  if (!env) throw queryFault(`${expr.op} is evaluated only in a trigger's if.`, 'if');
  const [first, second, third] = expr.args;
  const bind = (names: Record<string, unknown>): EvalEnv => {
    const variables = new Map(env.variables);
    for (const [k, v] of Object.entries(names)) variables.set(k, v);
    return { ...env, variables };
  };
  switch (expr.op) {
    case '$toBool':
      return Boolean(evaluate(first!, doc, env));
    case '$cache': {
      const key = evaluate(first!, doc, env);
      return typeof key === 'string' && env.cache ? (env.cache(key) ?? null) : null;
    }
    case '$find': {
      const list = elements(evaluate(first!, doc, env), '$find');
      const as = expr.options?.names?.[0] ?? 'this';
      for (const element of list ?? []) {
        if (env.truthy(evaluate(second!, doc, bind({ [as]: element })), second!.type)) return element;
      }
      return null;
    }
    case '$reduce': {
      const list = elements(evaluate(first!, doc, env), '$reduce');
      if (!list) return null;
      let value = evaluate(second!, doc, env);
      for (const element of list) value = evaluate(third!, doc, bind({ this: element, value }));
      return value ?? null;
    }
    default: {
      // $let: the variables' values, then `in` (the last argument) with them bound.
      const names = expr.options?.names ?? [];
      const values = Object.fromEntries(names.map((n, i) => [n, evaluate(expr.args[i]!, doc, env)]));
      return evaluate(expr.args[expr.args.length - 1]!, doc, bind(values));
    }
  }
}
