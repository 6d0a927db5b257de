/**
 * Finds where a fault path such as `where.$and[1].name.last.$regex` sits in the JSON text, so the
 * JSON view can highlight the exact spot the shared parser complained about.
 */

export interface TextRange {
  start: number;
  end: number;
}

interface Located {
  /** From the key (for object members) or the value start, to the value end. */
  range: TextRange;
  members?: Map<string, Located>;
  items?: Located[];
}

/** Ranges of every value in `text`; `text` must already be valid JSON (parse it first). */
function scan(text: string): Located {
  let pos = 0;
  const ws = () => {
    while (pos < text.length && ' \t\n\r'.includes(text.charAt(pos))) pos++;
  };
  const string = (): string => {
    const start = pos;
    pos++;
    while (pos < text.length && text.charAt(pos) !== '"') pos += text.charAt(pos) === '\\' ? 2 : 1;
    pos++;
    return JSON.parse(text.slice(start, pos)) as string;
  };
  const value = (keyStart?: number): Located => {
    ws();
    const start = keyStart ?? pos;
    const ch = text.charAt(pos);
    if (ch === '{') {
      pos++;
      const members = new Map<string, Located>();
      ws();
      while (text.charAt(pos) !== '}' && pos < text.length) {
        ws();
        const at = pos;
        const key = string();
        ws();
        pos++; // ':'
        members.set(key, value(at));
        ws();
        if (text.charAt(pos) === ',') pos++;
        ws();
      }
      pos++;
      return { range: { start, end: pos }, members };
    }
    if (ch === '[') {
      pos++;
      const items: Located[] = [];
      ws();
      while (text.charAt(pos) !== ']' && pos < text.length) {
        items.push(value());
        ws();
        if (text.charAt(pos) === ',') pos++;
        ws();
      }
      pos++;
      return { range: { start, end: pos }, items };
    }
    if (ch === '"') {
      string();
      return { range: { start, end: pos } };
    }
    while (pos < text.length && !',}] \t\n\r'.includes(text.charAt(pos))) pos++;
    return { range: { start, end: pos } };
  };
  return value();
}

/**
 * The text range of `faultPath` (its leading argument name, e.g. `where`, dropped). Keys may hold
 * dots (`name.last`), so at each object the longest key that fits the rest of the path wins.
 * Returns the deepest range found, or the whole text when nothing matches.
 */
export function locateFaultPath(text: string, faultPath: string, argument: string): TextRange | null {
  if (text.trim() === '') return null;
  let root: Located;
  try {
    root = scan(text);
  } catch {
    return null;
  }
  let rest = faultPath.startsWith(argument) ? faultPath.slice(argument.length) : faultPath;
  let node = root;
  while (rest.length > 0) {
    const index = /^\[(\d+)\]/.exec(rest);
    if (index && node.items) {
      const item = node.items[Number(index[1])];
      if (!item) break;
      node = item;
      rest = rest.slice(index[0].length);
      continue;
    }
    if (!rest.startsWith('.') || !node.members) break;
    const candidates = [...node.members.keys()]
      .filter((key) => {
        const after = rest.charAt(key.length + 1);
        return rest.startsWith(`.${key}`) && (after === '' || after === '.' || after === '[');
      })
      .sort((a, b) => b.length - a.length);
    const key = candidates[0];
    if (key === undefined) break;
    node = node.members.get(key) as Located;
    rest = rest.slice(key.length + 1);
  }
  return node.range;
}

/** The 1-based line and column of an offset, for messages. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
