/**
 * Property-path completion in the where and sort text (issue 44 item 10): where the cursor stands
 * on an object key — quoted (`{"na|`) or bare (`{na|`) — the schema's paths that fit are offered,
 * and a pick writes the key as JSON (`"name.last": `). Pure, so unit-tested; the editors render it.
 */

export interface Completion {
  /** The key's text typed so far (without its quote). */
  prefix: string;
  /** The range a pick replaces: the key's opening quote (if any) to its end (closing quote included). */
  from: number;
  to: number;
  options: string[];
}

const MAX_OPTIONS = 30;
const KEY_CHAR = /[A-Za-z0-9_.$]/;

/** What the cursor stands on, read by scanning the JSON text up to it (strings and brackets). */
function scan(text: string, cursor: number): { stack: string[]; stringStart: number | null } {
  const stack: string[] = [];
  let stringStart: number | null = null;
  let escaped = false;
  for (let i = 0; i < cursor; i++) {
    const ch = text[i];
    if (stringStart !== null) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') stringStart = null;
      continue;
    }
    if (ch === '"') stringStart = i;
    else if (ch === '{' || ch === '[') stack.push(ch);
    else if (ch === '}' || ch === ']') stack.pop();
  }
  return { stack, stringStart };
}

function previousSignificant(text: string, before: number): string | undefined {
  for (let i = before - 1; i >= 0; i--) {
    const ch = text[i] ?? '';
    if (!/\s/.test(ch)) return ch;
  }
  return undefined;
}

/** The completion at `cursor`, or null when the cursor is not on an object key. */
export function keyCompletion(text: string, cursor: number, paths: readonly string[]): Completion | null {
  const { stack, stringStart } = scan(text, cursor);
  if (stack.at(-1) !== '{') return null;
  let from: number;
  let prefix: string;
  if (stringStart !== null) {
    from = stringStart;
    prefix = text.slice(stringStart + 1, cursor);
    if (!/^[A-Za-z0-9_.$]*$/.test(prefix)) return null;
  } else {
    const word = /[A-Za-z0-9_.$]*$/.exec(text.slice(0, cursor))?.[0] ?? '';
    from = cursor - word.length;
    prefix = word;
  }
  const before = previousSignificant(text, from);
  if (before !== '{' && before !== ',') return null;
  // The rest of the key after the cursor, and its closing quote when there is one.
  let to = cursor;
  while (to < text.length && KEY_CHAR.test(text[to] ?? '')) to++;
  if (stringStart !== null && text[to] === '"') to++;
  const whole = text.slice(stringStart === null ? from : from + 1, to).replace(/"$/, '');
  const lower = prefix.toLowerCase();
  const starting = paths.filter((p) => p.toLowerCase().startsWith(lower));
  const containing =
    lower === '' ? [] : paths.filter((p) => !p.toLowerCase().startsWith(lower) && p.toLowerCase().includes(lower));
  const options = [...starting, ...containing].slice(0, MAX_OPTIONS);
  // A key already written out in full needs no list.
  if (options.length === 0 || (options.length === 1 && options[0] === whole && text[to - 1] === '"')) return null;
  return { prefix, from, to, options };
}

/** The text with the pick written as a JSON key, and where the cursor goes (after `: `). */
export function applyCompletion(text: string, completion: Completion, path: string): { text: string; cursor: number } {
  const after = text.slice(completion.to);
  const hasColon = /^\s*:/.test(after);
  const inserted = `${JSON.stringify(path)}${hasColon ? '' : ': '}`;
  return { text: text.slice(0, completion.from) + inserted + after, cursor: completion.from + inserted.length };
}
