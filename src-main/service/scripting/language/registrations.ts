/**
 * What a library script registers with the original's `@route`, `@trigger`, `@job` and `@policy` decorators
 * (docs/scripting.md#decorator-registrations), read from its syntax tree at save time: no script runs on save. The
 * decorators must come from the `decorators` module (`import { route } from 'decorators'`,
 * `const { route } = require('decorators')` or `const d = require('decorators')` then
 * `@d.route(...)`) and take literal options, as every published script does.
 *
 * Stored with the compiled script (compiled-cache.ts) and listed by `registrationsOf`: routes are
 * served by routes/script-routes.ts; triggers and jobs are kept for their runner (issue 41). The
 * shape is documented in docs/scripting.md ("Decorator registrations").
 */
import type { BabelFile, BabelNode } from './babel.js';
import { DYNAMIC, staticValue, type StaticValue } from './static-value.js';

export type RegistrationType = 'route' | 'trigger' | 'job' | 'policy';

export interface ScriptRegistration {
  type: RegistrationType;
  /** route: `{method, path, acl, …}`; trigger: `{object, event, …}`; job: `{cron, …}`. */
  configuration: Record<string, StaticValue>;
  name?: string;
  weight: number;
  metadata: {
    className: string;
    methodName: string;
    static: boolean;
    loc: { line: number; column: number };
    /** A `@policy` on a class field (`@policy static p = {…}`): options only, no method to run. */
    field?: true;
  };
}

export class RegistrationError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

const KINDS = new Set<RegistrationType>(['route', 'trigger', 'job', 'policy']);
const MAX_NODES = 200_000;
const METHODS = /^(\*|get|post|put|patch|delete|head|options)\s+(\S.*)$/i;

/** Local names bound to the `decorators` module or to its route/trigger/job exports. */
interface Bindings {
  modules: Set<string>;
  names: Map<string, RegistrationType>;
}

/**
 * `source` is the script as written: an option that is not a literal (an `if` naming another
 * library's constant) is kept as `{ $expression: '<its source text>' }` for the runner to judge.
 */
export function registrationsOf(ast: BabelFile, source = ''): ScriptRegistration[] {
  const bindings: Bindings = { modules: new Set(), names: new Map() };
  const classes: BabelNode[] = [];
  let seen = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    if (!node || typeof node !== 'object' || typeof (node as BabelNode).type !== 'string') return;
    if (++seen > MAX_NODES) return;
    const n = node as BabelNode;
    collectBinding(n, bindings);
    if (n.type === 'ClassDeclaration' || n.type === 'ClassExpression') classes.push(n);
    for (const key of Object.keys(n)) {
      if (key !== 'loc' && key !== 'start' && key !== 'end' && key !== 'leadingComments') visit(n[key]);
    }
  };
  visit(ast.program);
  const out: ScriptRegistration[] = [];
  const dynamic = (n: BabelNode): StaticValue => ({
    $expression: source.slice(Number(n.start ?? 0), Number(n.end ?? 0)).slice(0, 2000),
  });
  for (const cls of classes) out.push(...classRegistrations(cls, bindings, dynamic));
  return out;
}

function isRequireOf(node: BabelNode | undefined, module: string): boolean {
  if (!node || node.type !== 'CallExpression') return false;
  const callee = node.callee as BabelNode;
  const args = node.arguments as BabelNode[];
  return callee.type === 'Identifier' && callee.name === 'require' && args[0]?.value === module;
}

function collectBinding(n: BabelNode, b: Bindings): void {
  if (n.type === 'ImportDeclaration' && (n.source as BabelNode).value === 'decorators') {
    for (const s of n.specifiers as BabelNode[]) {
      const local = (s.local as BabelNode).name as string;
      if (s.type === 'ImportSpecifier') {
        const imported = (s.imported as BabelNode).name as RegistrationType;
        if (KINDS.has(imported)) b.names.set(local, imported);
      } else b.modules.add(local);
    }
  }
  if (n.type === 'VariableDeclarator' && isRequireOf(n.init as BabelNode, 'decorators')) {
    const id = n.id as BabelNode;
    if (id.type === 'Identifier') b.modules.add(id.name as string);
    if (id.type === 'ObjectPattern') {
      for (const p of id.properties as BabelNode[]) {
        const key = (p.key as BabelNode | undefined)?.name as RegistrationType | undefined;
        const value = p.value as BabelNode | undefined;
        if (key && KINDS.has(key) && value?.type === 'Identifier') b.names.set(value.name as string, key);
      }
    }
  }
}

function decoratorKind(expr: BabelNode, b: Bindings): RegistrationType | undefined {
  const callee = expr.type === 'CallExpression' ? (expr.callee as BabelNode) : expr;
  if (callee.type === 'Identifier') return b.names.get(callee.name as string);
  if (callee.type === 'MemberExpression' && !callee.computed) {
    const obj = callee.object as BabelNode;
    const prop = (callee.property as BabelNode).name as RegistrationType;
    if (obj.type === 'Identifier' && b.modules.has(obj.name as string) && KINDS.has(prop)) return prop;
  }
  return undefined;
}

function classRegistrations(cls: BabelNode, b: Bindings, dynamic: (n: BabelNode) => StaticValue): ScriptRegistration[] {
  const className = ((cls.id as BabelNode | null)?.name as string | undefined) ?? '';
  const out: ScriptRegistration[] = [];
  for (const member of (cls.body as BabelNode).body as BabelNode[]) {
    const decorators = (member.decorators as BabelNode[] | undefined) ?? [];
    for (const dec of decorators) {
      const expr = dec.expression as BabelNode;
      const kind = decoratorKind(expr, b);
      if (!kind) continue;
      const loc = dec.loc?.start ?? { line: 1, column: 0 };
      const key = member.key as BabelNode;
      const methodName = member.computed ? '' : ((key.name ?? key.value) as string | undefined);
      if (!methodName || (member.type !== 'ClassMethod' && member.type !== 'ClassProperty')) {
        throw new RegistrationError(`@${kind} decorates a named class method.`, loc.line, loc.column + 1);
      }
      const args =
        expr.type === 'CallExpression'
          ? (expr.arguments as BabelNode[]).map((a) => staticValue(a, 0, dynamic))
          : kind === 'policy' && member.value
            ? [staticValue(member.value as BabelNode, 0, dynamic)]
            : [];
      // A policy's options are read by policies/policy-def.ts (checked at save by its record
      // rule); they never fail a run of the library.
      if (kind === 'policy') {
        const options = args.find((a) => a !== DYNAMIC && typeof a === 'object' && a !== null && !Array.isArray(a));
        out.push({
          type: 'policy',
          configuration: (options ?? {}) as Record<string, StaticValue>,
          weight: 0,
          metadata: {
            className,
            methodName,
            static: member.static === true,
            loc: { line: loc.line, column: loc.column + 1 },
            ...(member.type === 'ClassProperty' ? { field: true as const } : {}),
          },
        });
        continue;
      }
      if (args.some((a) => a === DYNAMIC)) {
        throw new RegistrationError(
          `@${kind} takes literal strings and option objects: the service reads them when the script is saved.`,
          loc.line,
          loc.column + 1,
        );
      }
      const metadata = {
        className,
        methodName,
        static: member.static === true,
        loc: { line: loc.line, column: loc.column + 1 },
      };
      for (const r of build(kind, args as StaticValue[], loc)) out.push({ ...r, metadata });
    }
  }
  return out;
}

type Partial = Omit<ScriptRegistration, 'metadata'>;

function build(kind: RegistrationType, args: StaticValue[], loc: { line: number; column: number }): Partial[] {
  const strings = args.filter((a): a is string => typeof a === 'string');
  const found = args.find((a) => typeof a === 'object' && a !== null && !Array.isArray(a));
  const options = (found ?? {}) as Record<string, StaticValue>;
  const common = {
    weight: typeof options.weight === 'number' ? options.weight : 0,
    ...(typeof options.name === 'string' ? { name: options.name } : {}),
  };
  const fail = (reason: string) => new RegistrationError(reason, loc.line, loc.column + 1);
  if (kind === 'route') {
    const spec = strings[0];
    const m = spec === undefined ? null : METHODS.exec(spec.trim());
    const method = String(m ? m[1] : (options.method ?? '*')).toLowerCase();
    const path = m ? m[2] : (spec ?? options.path);
    if (typeof path !== 'string' || path === '') throw fail("@route needs 'METHOD path' or {method, path}.");
    return [{ type: 'route', configuration: { ...options, method, path: path.trim() }, ...common }];
  }
  if (kind === 'trigger') {
    const events = strings.length > 0 ? strings : typeof options.event === 'string' ? [options.event] : [];
    if (events.length === 0) throw fail("@trigger needs an event such as 'create.before'.");
    return events.map((event) => ({ type: 'trigger', configuration: { ...options, event }, ...common }));
  }
  const cron = strings[0] ?? options.cron;
  if (typeof cron !== 'string' || cron.trim().split(/\s+/).length !== 5) throw fail('@job needs a 5-field cron.');
  return [{ type: 'job', configuration: { ...options, cron }, ...common }];
}
