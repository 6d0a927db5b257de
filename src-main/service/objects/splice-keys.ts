/**
 * Keeps some top-level members of a stored JSON document without parsing it (issue #14 item 4):
 * a scope that allows only top-level properties (`object.read.account.*.email`) projects each
 * record by copying the allowed `"key":value` spans of its stored text, in their stored order —
 * the same text `JSON.stringify` gives for the record parsed and stripped, for a fraction of the
 * cost. The text must be what `JSON.stringify` wrote (no whitespace between tokens), as the store
 * keeps it.
 */

/** The stored text with only the members whose key is in `keep`; `{}` when none is. */
export function spliceTopLevelKeys(text: string, keep: ReadonlySet<string>): string {
  const kept: string[] = [];
  let i = 1; // past '{'
  while (i < text.length && text[i] !== '}') {
    const keyStart = i;
    const keyEnd = endOfString(text, i);
    const valueEnd = endOfValue(text, keyEnd + 1); // past ':'
    const raw = text.slice(keyStart + 1, keyEnd - 1);
    const key = raw.includes('\\') ? (JSON.parse(text.slice(keyStart, keyEnd)) as string) : raw;
    if (keep.has(key)) kept.push(text.slice(keyStart, valueEnd));
    i = text[valueEnd] === ',' ? valueEnd + 1 : valueEnd;
  }
  return `{${kept.join(',')}}`;
}

/**
 * Where the value of the top-level member `key` lies in `text` (`text.slice(start, end)` is its
 * JSON), or undefined when the object has no such member.
 */
export function topLevelValueSpan(text: string, key: string): { start: number; end: number } | undefined {
  let i = 1; // past '{'
  while (i < text.length && text[i] !== '}') {
    const keyEnd = endOfString(text, i);
    const valueEnd = endOfValue(text, keyEnd + 1);
    const raw = text.slice(i + 1, keyEnd - 1);
    const name = raw.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw;
    if (name === key) return { start: keyEnd + 1, end: valueEnd };
    i = text[valueEnd] === ',' ? valueEnd + 1 : valueEnd;
  }
  return undefined;
}

/** Index just past the closing quote of the string starting at `start`. */
function endOfString(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i + 1;
    else if (Number.isNaN(c)) throw new Error('unterminated string in stored JSON');
    else i++;
  }
}

/** Index just past the value starting at `start` (at the ',' or '}' that follows it). */
function endOfValue(text: string, start: number): number {
  let depth = 0;
  let i = start;
  for (;;) {
    const c = text.charCodeAt(i);
    if (Number.isNaN(c)) throw new Error('unterminated value in stored JSON');
    if (c === 0x22) {
      i = endOfString(text, i);
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return i;
      depth--;
    } else if (c === 0x2c && depth === 0) return i;
    i++;
  }
}
