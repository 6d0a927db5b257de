/**
 * The transpiler behind scripts' ES modules and legacy decorators: Babel 7 (`@babel/core` with
 * `plugin-proposal-decorators` in `legacy` mode, `plugin-transform-class-properties` loose and
 * `plugin-transform-modules-commonjs`). Chosen because it is pure JavaScript (it runs unchanged in
 * plain Node and inside the packaged Electron app, no native binary or 20 MB WebAssembly), because
 * its `legacy` mode is the very decorator semantics the original's scripts were written against
 * (the original compiled them with Babel), and because `retainLines` keeps each statement on the
 * line it was written on, so runtime traces name the lines of the source as written.
 *
 * Loaded lazily (about 0.3 s once per process) through `createRequire`: the packages are CommonJS
 * and ship no types, so only the few calls used here are typed.
 */
import { createRequire } from 'node:module';

export interface BabelNode {
  type: string;
  loc?: { start: { line: number; column: number } } | null;
  [key: string]: unknown;
}

export interface BabelFile {
  type: 'File';
  program: BabelNode & { sourceType: 'script' | 'module'; body: BabelNode[] };
}

interface BabelCore {
  parseSync(code: string, options: Record<string, unknown>): BabelFile | null;
  transformFromAstSync(ast: BabelFile, code: string, options: Record<string, unknown>): { code?: string | null } | null;
  version: string;
}

export interface Babel {
  core: BabelCore;
  plugins: unknown[];
  /** Part of every cache key: a new Babel may compile the same source differently. */
  version: string;
}

let loaded: Babel | undefined;

export function babel(): Babel {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const core = require('@babel/core') as BabelCore;
  const decorators = require('@babel/plugin-proposal-decorators') as unknown;
  const classProperties = require('@babel/plugin-transform-class-properties') as unknown;
  const commonjs = require('@babel/plugin-transform-modules-commonjs') as unknown;
  loaded = {
    core,
    plugins: [
      [decorators, { version: 'legacy' }],
      // Legacy decorators on class fields (`@policy static p = {...}`) need loose class properties.
      [classProperties, { loose: true }],
      // `import x from 'name'` becomes `require('name')`, resolved by the sandbox's module system.
      [commonjs, { loose: true, importInterop: 'babel' }],
    ],
    version: core.version,
  };
  return loaded;
}

/** Parser options shared by parsing and transforming: a top-level `return` stays allowed. */
export const PARSER_OPTIONS = {
  sourceType: 'unambiguous',
  allowReturnOutsideFunction: true,
  plugins: [['decorators-legacy']],
  errorRecovery: false,
} as const;
