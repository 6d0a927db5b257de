/**
 * A small strict JSON parser for query text. We don't use `JSON.parse` because its error
 * messages differ between engines and often omit the position, it silently keeps the last of
 * duplicate keys (ambiguous in a `where`), and it has no nesting limit. Objects come back with a
 * null prototype so keys like `__proto__` are plain data.
 */
import { MAX_JSON_NESTING } from './limits.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    detail: string,
  ) {
    super(`Invalid JSON at character ${offset}: ${detail}.`);
    this.name = 'JsonSyntaxError';
  }
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const NUMBER_PATTERN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export function parseJson(text: string): JsonValue {
  let pos = 0;

  const fail = (detail: string, at = pos): never => {
    throw new JsonSyntaxError(at, detail);
  };
  const skipWhitespace = (): void => {
    while (pos < text.length && ' \t\n\r'.includes(text.charAt(pos))) pos++;
  };
  const describe = (): string =>
    pos >= text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(text.charAt(pos))}`;

  const parseString = (): string => {
    const start = pos;
    pos++; // opening quote
    let out = '';
    for (;;) {
      if (pos >= text.length) fail('unterminated string', start);
      const ch = text.charAt(pos);
      if (ch === '"') {
        pos++;
        return out;
      }
      if (ch === '\\') {
        const esc = text.charAt(pos + 1);
        if (esc === 'u') {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('invalid \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          pos += 6;
        } else {
          const decoded = ESCAPES[esc];
          if (decoded === undefined) fail('invalid escape');
          out += decoded;
          pos += 2;
        }
        continue;
      }
      if (ch < ' ') fail('control character in string');
      out += ch;
      pos++;
    }
  };

  const parseValue = (depth: number): JsonValue => {
    skipWhitespace();
    const ch = text.charAt(pos);
    if (ch === '{' || ch === '[') {
      if (depth >= MAX_JSON_NESTING) fail(`nested deeper than ${MAX_JSON_NESTING} levels`);
      return ch === '{' ? parseObject(depth + 1) : parseArray(depth + 1);
    }
    if (ch === '"') return parseString();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return value;
      }
    }
    NUMBER_PATTERN.lastIndex = pos;
    const m = NUMBER_PATTERN.exec(text);
    if (m && m[0].length > 0) {
      const n = Number(m[0]);
      if (!Number.isFinite(n)) fail('number out of range');
      pos += m[0].length;
      return n;
    }
    return fail(describe());
  };

  const parseArray = (depth: number): JsonValue[] => {
    pos++;
    const out: JsonValue[] = [];
    skipWhitespace();
    if (text.charAt(pos) === ']') {
      pos++;
      return out;
    }
    for (;;) {
      out.push(parseValue(depth));
      skipWhitespace();
      const ch = text.charAt(pos);
      pos++;
      if (ch === ']') return out;
      if (ch !== ',') fail(`expected "," or "]" but found ${ch ? JSON.stringify(ch) : 'end of input'}`, pos - 1);
    }
  };

  const parseObject = (depth: number): JsonObject => {
    pos++;
    const out = Object.create(null) as JsonObject;
    skipWhitespace();
    if (text.charAt(pos) === '}') {
      pos++;
      return out;
    }
    for (;;) {
      skipWhitespace();
      if (text.charAt(pos) !== '"') fail(`expected a property name but found ${describe().replace('unexpected ', '')}`);
      const keyAt = pos;
      const key = parseString();
      if (Object.prototype.hasOwnProperty.call(out, key)) fail(`duplicate key ${JSON.stringify(key)}`, keyAt);
      skipWhitespace();
      if (text.charAt(pos) !== ':') fail('expected ":"');
      pos++;
      out[key] = parseValue(depth);
      skipWhitespace();
      const ch = text.charAt(pos);
      pos++;
      if (ch === '}') return out;
      if (ch !== ',') fail(`expected "," or "}" but found ${ch ? JSON.stringify(ch) : 'end of input'}`, pos - 1);
    }
  };

  const value = parseValue(0);
  skipWhitespace();
  if (pos < text.length) fail('unexpected text after the JSON value');
  return value;
}
