/**
 * `$regex` support shared by the parser, the evaluator and the SQLite `re_match` function, so all
 * three read a pattern the same way. The engine is re2js (RE2): matching is linear in the input
 * whatever the pattern, so a hostile pattern cannot stall the service (docs/query-semantics.md).
 */
import { RE2JS } from 're2js';
import { MAX_REGEX_LENGTH, MIN_REGEX_LENGTH } from './limits.js';
import type { RegexLiteral } from './ast.js';

const ALLOWED_FLAGS = 'imsx';

/** Splits `/pattern/flags`; returns a reason string when the literal is malformed. */
export function splitRegexLiteral(text: string): RegexLiteral | string {
  const close = text.lastIndexOf('/');
  if (!text.startsWith('/') || close < 1) return 'A $regex value must be written /pattern/flags.';
  const source = text.slice(1, close);
  const flags = text.slice(close + 1);
  const length = [...source].length;
  if (length < MIN_REGEX_LENGTH || length > MAX_REGEX_LENGTH) {
    return `A $regex pattern must be ${MIN_REGEX_LENGTH}–${MAX_REGEX_LENGTH} characters long.`;
  }
  for (const [i, flag] of [...flags].entries()) {
    if (!ALLOWED_FLAGS.includes(flag)) return `Unsupported $regex flag "${flag}"; allowed flags are ${ALLOWED_FLAGS}.`;
    if (flags.indexOf(flag) !== i) return `The $regex flag "${flag}" is repeated.`;
  }
  return { source, flags };
}

/**
 * Applies the `x` (extended) flag, which RE2 lacks: removes unescaped whitespace and `#` comments
 * (to end of line) outside character classes.
 */
export function stripExtendedSyntax(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source.charAt(i);
    if (ch === '\\') {
      out += source.slice(i, i + 2);
      i++;
      continue;
    }
    if (inClass) {
      // `[:alpha:]` inside a class contains a `]` that does not close the class.
      if (ch === '[' && source.charAt(i + 1) === ':') {
        const end = source.indexOf(':]', i + 2);
        if (end > 0) {
          out += source.slice(i, end + 2);
          i = end + 1;
          continue;
        }
      }
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      out += ch;
      // A `]` right after `[` or `[^` is a literal member, not the end of the class.
      if (source.charAt(i + 1) === '^') out += source.charAt(++i);
      if (source.charAt(i + 1) === ']') out += source.charAt(++i);
      continue;
    }
    if (' \t\n\r\f\v'.includes(ch)) continue;
    if (ch === '#') {
      const newline = source.indexOf('\n', i);
      if (newline < 0) break;
      i = newline;
      continue;
    }
    out += ch;
  }
  return out;
}

/** The pattern RE2 actually compiles (after `x` processing). */
export function effectiveRegexSource(regex: RegexLiteral): string {
  return regex.flags.includes('x') ? stripExtendedSyntax(regex.source) : regex.source;
}

function re2Flags(flags: string): number {
  let out = 0;
  if (flags.includes('i')) out |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) out |= RE2JS.MULTILINE;
  if (flags.includes('s')) out |= RE2JS.DOTALL;
  return out;
}

const COMPILED_CACHE_SIZE = 256;
const compiledCache = new Map<string, RE2JS>();

/**
 * Compiles with RE2; throws re2js's syntax exception for patterns RE2 rejects. Compiled patterns
 * are immutable and reused (bounded, oldest first out): the same query arrives page after page.
 */
export function compileRegex(regex: RegexLiteral): RE2JS {
  const key = `${regex.flags}/${regex.source}`;
  const cached = compiledCache.get(key);
  if (cached) return cached;
  const compiled = RE2JS.compile(effectiveRegexSource(regex), re2Flags(regex.flags));
  if (compiledCache.size >= COMPILED_CACHE_SIZE) compiledCache.delete(compiledCache.keys().next().value as string);
  compiledCache.set(key, compiled);
  return compiled;
}

/**
 * Returns a matcher `(source, flags, value) → boolean` with a bounded cache of compiled patterns
 * (least recently used evicted), for hot loops such as an SQLite function called once per row.
 */
export function createRegexMatcher(cacheSize = 256): (source: string, flags: string, value: unknown) => boolean {
  const cache = new Map<string, RE2JS>();
  return (source, flags, value) => {
    if (typeof value !== 'string') return false;
    const key = `${flags}/${source}`;
    let compiled = cache.get(key);
    if (compiled) {
      cache.delete(key); // re-insert to mark as most recently used
    } else {
      compiled = compileRegex({ source, flags });
      if (cache.size >= cacheSize) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
    }
    cache.set(key, compiled);
    return compiled.test(value);
  };
}
