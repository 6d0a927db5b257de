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
