/**
 * Compiled scripts keyed by a hash of their source (and the transpiler's version): a script is
 * transpiled when it is saved (the record rules call `compileScript`), and every later run of the
 * same version — a route, a library loaded with `require`, a runner script sent again — finds it
 * here and pays nothing. After a restart the first run of each version transpiles it once.
 * Bounded: least recently used entries go first past MAX_ENTRIES or MAX_BYTES.
 */
import { createHash } from 'node:crypto';
import { transpile, type Transpiled } from './transpile.js';

const MAX_ENTRIES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;

interface Entry {
  result: Transpiled;
  bytes: number;
}

const cache = new Map<string, Entry>();
let totalBytes = 0;

export function sourceHash(source: string): string {
  return createHash('sha256').update(source).digest('base64url');
}

/** The compiled form of `source` (or its syntax error), from the cache when this version was seen. */
export function compileScript(source: string): Transpiled {
  const key = sourceHash(source);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.result;
  }
  const result = transpile(source);
  const bytes = (result.ok ? result.code.length * 2 : 200) + 200;
  cache.set(key, { result, bytes });
  totalBytes += bytes;
  for (const [k, e] of cache) {
    if (cache.size <= MAX_ENTRIES && totalBytes <= MAX_BYTES) break;
    cache.delete(k);
    totalBytes -= e.bytes;
  }
  return result;
}
