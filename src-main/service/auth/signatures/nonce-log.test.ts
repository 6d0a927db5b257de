import { describe, expect, it } from 'vitest';
import { logLines, parseLogLines, type JournalEntry } from './nonce-log.js';

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
