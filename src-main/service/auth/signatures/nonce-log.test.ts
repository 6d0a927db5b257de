import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logLines, NonceLog, parseLogLines, type JournalEntry } from './nonce-log.js';

const dir = mkdtempSync(join(tmpdir(), 'nonce-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('nonce log lines', () => {
  const entries: JournalEntry[] = [
    { expires: 1_700_000_900_000, appId: 1, nonce: 'aaaaaaaaaaaaaaaa' },
    { expires: 1_700_000_900_001, appId: 42, nonce: '0123456789abcdef' },
  ];

  it('reads back what it writes', () => {
    expect(logLines(entries)).toBe('1700000900000 1 aaaaaaaaaaaaaaaa\n1700000900001 42 0123456789abcdef\n');
    expect(parseLogLines(logLines(entries))).toEqual(entries);
    expect(parseLogLines('')).toEqual([]);
  });

  it('skips a last line whose write did not finish, even one that would parse', () => {
    const text = logLines(entries);
    for (let cut = 0; cut < text.length; cut++) {
      const read = parseLogLines(text.slice(0, cut));
      expect(read).toEqual(entries.slice(0, text.slice(0, cut).split('\n').length - 1));
    }
  });

  it('skips lines that are not entries', () => {
    const text = ['garbage', '1 2 UPPERCASEUPPERCA', '1 2 short', '-1 2 aaaaaaaaaaaaaaaa', ''].join('\n');
    expect(parseLogLines(text + logLines(entries))).toEqual(entries);
  });
});

describe('NonceLog', () => {
  const entry = (i: number): JournalEntry => ({
    expires: 1_700_000_900_000 + i,
    appId: 1,
    nonce: `${i}`.padStart(16, 'a'),
  });

  it('keeps the next write whole after a write that failed part-way', () => {
    const file = join(dir, 'torn.log');
    let failNext = false;
    const writeBytes = ((fd: number, buffer: Buffer, offset: number, length: number) => {
      if (!failNext) return writeSync(fd, buffer, offset, length);
      failNext = false;
      writeSync(fd, buffer, offset, 20); // part of the first line reaches the file
      throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    }) as typeof writeSync;
    const log = NonceLog.open(file, false, writeBytes);
    try {
      log.write(logLines([entry(1)]));
      failNext = true;
      expect(() => log.write(logLines([entry(2)]))).toThrow(/EIO/);
      log.write(logLines([entry(3)]));
      expect(readFileSync(file, 'latin1')).toContain(logLines([entry(3)]));
      expect(log.entries()).toEqual([entry(1), entry(3)]); // 3 did not run into the fragment of 2
    } finally {
      log.close();
    }
  });
});
