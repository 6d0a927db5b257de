/**
 * Index ranges implied by an anchored `$regex`. `/^smi/` can only match values in
 * ['smi', 'smj'), so the compiler adds that range (which an expression index serves) next to the
 * exact `re_match`. The ranges only narrow; `re_match` still decides, so results stay exact —
 * except where `prefixRangesAreExact` proves the ranges are the matches themselves.
 */
import { RE2JS } from 're2js';
import type { RegexLiteral } from '../../../src-shared/query/ast.js';
import { effectiveRegexSource } from '../../../src-shared/query/regex.js';

/** Up to this many cased characters get case variants under the `i` flag. */
export const MAX_CASED_PREFIX_CHARS = 3;
/** Upper bound on OR-ed ranges (e.g. `k` has three variants: k, K, U+212A KELVIN SIGN). */
export const MAX_PREFIX_RANGES = 32;

export interface PrefixRange {
  /** Inclusive lower bound. */
  from: string;
  /** Exclusive upper bound; absent when no string bounds it (prefix ends in U+10FFFF). */
  to?: string;
}

const METACHARACTERS = new Set([...'.[]()*+?{}|^$']);
const OPTIONAL_QUANTIFIERS = new Set(['*', '?', '{']);

/**
 * The case variants RE2 matches for each ASCII letter under `i`. Besides the ASCII pair, Unicode
 * simple case folding maps exactly two other code points onto ASCII letters: U+017F (ſ → s) and
 * U+212A (Kelvin sign → k); a test scans the code space to keep this claim honest. We ask RE2
 * itself which candidates it folds together, so we never disagree with `re_match`.
 */
const ASCII_CASE_VARIANTS: ReadonlyMap<string, string[]> = (() => {
  const out = new Map<string, string[]>();
  for (let code = 0x41; code <= 0x7a; code++) {
    const ch = String.fromCharCode(code);
    if (!/[A-Za-z]/.test(ch)) continue;
    const re = RE2JS.compile(RE2JS.quote(ch), RE2JS.CASE_INSENSITIVE);
    const candidates = [...new Set([ch, ch.toLowerCase(), ch.toUpperCase(), '\u017F', '\u212A'])];
    out.set(
      ch,
      candidates.filter((c) => re.testExact(c)),
    );
  }
  return out;
})();

/** True when `|` occurs outside any group or class: `^ab|cd` has no mandatory prefix. */
function hasTopLevelAlternation(source: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source.charAt(i);
    if (ch === '\\') i++;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') {
      inClass = true;
      if (source.charAt(i + 1) === '^') i++;
      if (source.charAt(i + 1) === ']') i++;
    } else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) return true;
  }
  return false;
}

/** The literal code points every match must start with, or [] when there are none. */
export function anchoredLiteralPrefix(regex: RegexLiteral): string[] {
  if (regex.flags.includes('m')) return []; // `^` would also match after any newline
  const source = effectiveRegexSource(regex);
  if (!source.startsWith('^') || hasTopLevelAlternation(source)) return [];
  const chars = [...source.slice(1)];
  const prefix: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    let literal: string;
    if (ch === '\\') {
      const next = chars[i + 1];
      // Only escaped ASCII punctuation is a plain literal; \d, \b, \x{..}, \Q… are not.
      if (next === undefined || !/^[!-/:-@[-`{-~]$/.test(next)) break;
      literal = next;
      i++;
    } else if (METACHARACTERS.has(ch)) {
      break;
    } else {
      literal = ch;
    }
    const following = chars[i + 1];
    if (following !== undefined && OPTIONAL_QUANTIFIERS.has(following)) break; // `ab?`: b is optional
    prefix.push(literal);
    if (following === '+') break; // `ab+`: one b is certain, what follows is not
  }
  return prefix;
}

/** The code point after `c`, skipping the surrogate block (not valid in UTF-8 text). */
function nextCodePoint(c: number): number | undefined {
  if (c >= 0x10ffff) return undefined;
  return c + 1 === 0xd800 ? 0xe000 : c + 1;
}

function rangeFor(prefix: string): PrefixRange {
  const chars = [...prefix];
  const last = chars.pop();
  const next = last === undefined ? undefined : nextCodePoint(last.codePointAt(0) ?? 0);
  return next === undefined ? { from: prefix } : { from: prefix, to: chars.join('') + String.fromCodePoint(next) };
}

/** The ranges (OR-ed) that contain every value the regex can match; [] when none apply. */
export function regexPrefixRanges(regex: RegexLiteral): PrefixRange[] {
  const literal = anchoredLiteralPrefix(regex);
  if (literal.length === 0) return [];
  if (!regex.flags.includes('i')) return [rangeFor(literal.join(''))];
  let prefixes = [''];
  let cased = 0;
  for (const ch of literal) {
    if (ch.codePointAt(0)! > 0x7f) break; // non-ASCII case folding is not tabulated here
    const variants = ASCII_CASE_VARIANTS.get(ch) ?? [ch];
    if (variants.length > 1) {
      if (cased === MAX_CASED_PREFIX_CHARS || prefixes.length * variants.length > MAX_PREFIX_RANGES) break;
      cased++;
    }
    prefixes = prefixes.flatMap((p) => variants.map((v) => p + v));
  }
  return prefixes[0] === '' ? [] : prefixes.map(rangeFor);
}

/**
 * True when the ranges are exactly the text values the regex matches, so `re_match` would add
 * nothing but a call into JavaScript per row (at 300 rows, about 40 % of the bench's `/^s/i` query):
 * the pattern is `^` and letters or digits only (no escape, class, quantifier or alternation), its
 * only flag is `i`, and every character's case variants became ranges (none was cut by
 * `MAX_CASED_PREFIX_CHARS`). Then a text starts with one of the range prefixes exactly when RE2
 * matches it (the variants are RE2's own folds). Values that are not text never match either way:
 * numbers and booleans sort below every text, and the JSON text of an array or object starts with
 * `[` or `{`, which no range of a letter or digit contains.
 */
export function prefixRangesAreExact(regex: RegexLiteral, ranges: PrefixRange[]): boolean {
  if (!/^\^[A-Za-z0-9]{1,64}$/.test(regex.source) || (regex.flags !== '' && regex.flags !== 'i')) return false;
  const length = regex.source.length - 1;
  return ranges.length > 0 && ranges.every((r) => r.to !== undefined && [...r.from].length === length);
}
