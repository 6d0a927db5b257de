/**
 * Turns a script as written (ES2020+ with `import`/`export` and the original's legacy decorators)
 * into what the sandbox runs: CommonJS for QuickJS, whose `require` is the sandbox's module system.
 * A script without module syntax or decorators is returned unchanged (QuickJS runs modern
 * JavaScript natively), so scripts that ran before this existed run exactly as before and pay
 * nothing. Line numbers are kept (`retainLines`), so traces name the lines of the source as written.
 */
import { babel, PARSER_OPTIONS, type BabelFile, type BabelNode } from './babel.js';
import { RegistrationError, registrationsOf, type ScriptRegistration } from './registrations.js';

export type Transpiled =
  | { ok: true; code: string; transformed: boolean; registrations: ScriptRegistration[] }
  | { ok: false; line: number; column: number; message: string };

/** Cheap first look: without one of these words or an `@`, Babel has nothing to do. */
const MAYBE_MODULE_OR_DECORATED = /\bimport\b|\bexport\b|@/;

/** How many times Babel ran in this process (tests prove that runs do not transpile). */
export const transpileStats = { babelRuns: 0 };

export function transpile(source: string): Transpiled {
  if (!MAYBE_MODULE_OR_DECORATED.test(source)) {
    return { ok: true, code: source, transformed: false, registrations: [] };
  }
  const { core, plugins } = babel();
  transpileStats.babelRuns += 1;
  const base = { babelrc: false, configFile: false, sourceType: 'unambiguous', parserOpts: PARSER_OPTIONS };
  let ast: BabelFile;
  try {
    const parsed = core.parseSync(source, base);
    if (!parsed) return { ok: false, line: 1, column: 1, message: 'The script could not be parsed.' };
    ast = parsed;
  } catch (e) {
    return syntaxFailure(e);
  }
  if (!needsTransform(ast)) return { ok: true, code: source, transformed: false, registrations: [] };
  let registrations: ScriptRegistration[];
  try {
    registrations = registrationsOf(ast, source);
  } catch (e) {
    if (e instanceof RegistrationError) return { ok: false, line: e.line, column: e.column, message: e.message };
    throw e;
  }
  try {
    const out = core.transformFromAstSync(ast, source, {
      ...base,
      plugins,
      retainLines: true,
      compact: false,
      cloneInputAst: false,
      ast: false,
      code: true,
    });
    return { ok: true, code: out?.code ?? '', transformed: true, registrations };
  } catch (e) {
    return syntaxFailure(e);
  }
}

/** Module syntax or a decorator anywhere in the tree. */
function needsTransform(ast: BabelFile): boolean {
  if (ast.program.sourceType === 'module') return true;
  let found = false;
  let budget = 500_000;
  const visit = (node: unknown): void => {
    if (found || budget-- <= 0) return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const n = node as BabelNode;
    if (n.type === 'Decorator' || (Array.isArray(n.decorators) && n.decorators.length > 0)) {
      found = true;
      return;
    }
    for (const key of Object.keys(n)) if (key !== 'loc') visit(n[key]);
  };
  visit(ast.program.body);
  return found;
}

/** A Babel parse error as line, column (1-based, of the source as written) and a message. */
function syntaxFailure(e: unknown): Transpiled {
  const err = e as { message?: string; loc?: { line?: number; column?: number } };
  const message = String(err.message ?? 'invalid script')
    .replace(/^unknown(?: file)?:\s*/, '')
    .replace(/\s*\(\d+:\d+\)\s*$/m, '')
    .split('\n')[0] as string;
  return {
    ok: false,
    line: err.loc?.line ?? 1,
    column: (err.loc?.column ?? 0) + 1,
    message: `SyntaxError: ${message}`,
  };
}
