import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { readNdjsonLines, type NdjsonLine } from './ndjson-lines.js';

async function all(source: Parameters<typeof readNdjsonLines>[0], opts = {}): Promise<NdjsonLine[]> {
  const out: NdjsonLine[] = [];
  for await (const line of readNdjsonLines(source, opts)) out.push(line);
  return out;
}

describe('readNdjsonLines', () => {
  it('splits on line feeds, drops a CR before one, and numbers blank lines too', async () => {
    expect(await all([Buffer.from('{"a":1}\r\n\n{"b":2}')])).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: '' },
      { number: 3, text: '{"b":2}' },
    ]);
    expect(await all([Buffer.from('x\n')])).toEqual([{ number: 1, text: 'x' }]);
  });

  it('joins a line split across chunks, a multi-byte character included', async () => {
    const bytes = Buffer.from('{"t":"Zoë 🐙"}\n{"u":1}\n', 'utf8');
    const chunks = [bytes.subarray(0, 9), bytes.subarray(9, 12), bytes.subarray(12)];
    expect(await all(Readable.from(chunks))).toEqual([
      { number: 1, text: '{"t":"Zoë 🐙"}' },
      { number: 2, text: '{"u":1}' },
    ]);
  });

  it('reports a line of invalid UTF-8 instead of decoding it to U+FFFD, and reads the next one', async () => {
    const bad = Buffer.concat([Buffer.from('{"t":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n{"t":"ok"}')]);
    const lines = await all([bad]);
    expect(lines).toEqual([
      { number: 1, problem: 'is not valid UTF-8' },
      { number: 2, text: '{"t":"ok"}' },
    ]);
    expect(JSON.stringify(lines)).not.toContain('\uFFFD');
  });

  it('reports a line longer than the limit without keeping it, and reads the next one', async () => {
    const lines = await all(Readable.from([Buffer.from('x'.repeat(6)), Buffer.from('y'.repeat(6) + '\nshort')]), {
      maxLineBytes: 10,
    });
    expect(lines).toEqual([
      { number: 1, problem: 'is longer than 10 bytes' },
      { number: 2, text: 'short' },
    ]);
  });

  it('lets the event loop turn after every batch of lines, even when the whole body is one buffer', async () => {
    const body = Buffer.from('x\n'.repeat(10_000));
    let turns = 0;
    let reading = true;
    const count = () => {
      if (!reading) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const lines = await all([body], { linesPerTurn: 100 });
    reading = false;
    expect(lines).toHaveLength(10_000);
    // Another task (a request of another org) gets a turn at least once per 100 lines.
    expect(turns).toBeGreaterThanOrEqual(10_000 / 100 - 1);
  });
});
