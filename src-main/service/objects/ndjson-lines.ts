import { setImmediate as nextTurn } from 'node:timers/promises';

/** A line longer than this is refused as a whole (one JSON.parse must not hold the event loop long). */
export const MAX_NDJSON_LINE_BYTES = 16 * 1024 * 1024;

/** Lines handed out between two turns of the event loop. */
export const NDJSON_LINES_PER_TURN = 1000;

export interface NdjsonLine {
  /** 1-based line number. */
  number: number;
  /** The line's text, without its line break; absent when `problem` says why it cannot be read. */
  text?: string;
  problem?: string;
}

export interface NdjsonLineOptions {
  maxLineBytes?: number;
  linesPerTurn?: number;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Trust boundary: splits NDJSON bytes (a buffer, or a stream's chunks) into lines and decodes each
 * as strict UTF-8, as JSON bodies are (http/raw-input.ts): a line with invalid UTF-8 comes back
 * with a `problem` rather than with U+FFFD in place of its bytes, and so does a line longer than
 * `maxLineBytes` (its bytes are dropped as they arrive, so memory stays bounded). Splitting is on
 * bytes: 0x0A never occurs inside a multi-byte UTF-8 sequence, so one bad line never spoils the
 * next. After every `linesPerTurn` lines the generator waits for the next turn of the event loop,
 * so reading a large body never keeps other requests waiting.
 */
export async function* readNdjsonLines(
  source: Iterable<Uint8Array | string> | AsyncIterable<Uint8Array | string>,
  opts: NdjsonLineOptions = {},
): AsyncGenerator<NdjsonLine> {
  const maxLineBytes = opts.maxLineBytes ?? MAX_NDJSON_LINE_BYTES;
  const linesPerTurn = opts.linesPerTurn ?? NDJSON_LINES_PER_TURN;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let number = 0;

  const finish = (): NdjsonLine => {
    number++;
    const whole = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    const bytes = whole.length > 0 && whole[whole.length - 1] === CR ? whole.subarray(0, -1) : whole;
    const wasTooLong = tooLong;
    parts = [];
    size = 0;
    tooLong = false;
    if (wasTooLong) return { number, problem: `is longer than ${maxLineBytes} bytes` };
    try {
      return { number, text: decoder.decode(bytes) };
    } catch {
      return { number, problem: 'is not valid UTF-8' };
    }
  };
  const keep = (piece: Buffer) => {
    if (tooLong) return;
    size += piece.length;
    if (size > maxLineBytes) {
      tooLong = true;
      parts = [];
    } else if (piece.length > 0) parts.push(piece);
  };

  for await (const chunk of source) {
    const buf =
      typeof chunk === 'string'
        ? Buffer.from(chunk, 'utf8')
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let end = buf.indexOf(LF, start); end !== -1; end = buf.indexOf(LF, start)) {
      keep(buf.subarray(start, end));
      start = end + 1;
      yield finish();
      if (number % linesPerTurn === 0) await nextTurn();
    }
    keep(buf.subarray(start));
  }
  if (size > 0 || tooLong) yield finish();
}
