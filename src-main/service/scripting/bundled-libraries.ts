/**
 * The well-kept libraries scripts of the original `require` and this sandbox bundles instead of
 * rewriting them: their published single-file builds, read from node_modules by the sandbox worker
 * the first time a run asks for one (then kept in the worker's memory) and evaluated inside that
 * run's QuickJS context (prelude/require.ts). Measured costs per run that requires them are in
 * docs/scripting.md.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { moduleGroupSource } from './prelude/module-groups.js';

export const BUNDLED_FILES: Readonly<Record<string, string>> = {
  should: 'should/should.js',
  moment: 'moment/min/moment.min.js',
  underscore: 'underscore/underscore-umd-min.js',
  lodash: 'lodash/lodash.min.js',
  // The original's names for these (its module list); each package's own CommonJS or UMD build.
  bignumber: 'bignumber.js',
  decimal: 'decimal.js/decimal.js',
  // moment with `tz` and the zone data of 1970-2030 (136 kB; the full history is 735 kB). Its UMD
  // header requires 'moment', so the run's bundled moment is the one it extends.
  'moment.timezone': 'moment-timezone/builds/moment-timezone-with-data-1970-2030.min.js',
  'underscore.string': 'underscore.string/dist/underscore.string.min.js',
  // @breejs/later: the maintained fork of the `later` the original bundled (same API).
  later: '@breejs/later/dist/later.min.js',
};

const texts = new Map<string, string>();

/** A bundled library's text, or `group:<name>`'s built-in module group (prelude/module-groups.ts). */
export function bundledSource(name: string): string | undefined {
  if (name.startsWith('group:')) return moduleGroupSource(name.slice(6));
  if (!Object.hasOwn(BUNDLED_FILES, name)) return undefined;
  let text = texts.get(name);
  if (text === undefined) {
    const require = createRequire(import.meta.url);
    text = readFileSync(require.resolve(BUNDLED_FILES[name] as string), 'utf8');
    texts.set(name, text);
  }
  return text;
}
