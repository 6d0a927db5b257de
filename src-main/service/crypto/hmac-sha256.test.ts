import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HmacSha256Key } from './hmac-sha256.js';

const hex = (key: HmacSha256Key, message: string) => key.digest(message).toString('hex');

const reference = (key: Uint8Array, message: string) => createHmac('sha256', key).update(message, 'utf8').digest('hex');

/** A random string of UTF-16 units drawn from ASCII, 2- and 3-byte UTF-8, and surrogate pairs. */
function randomText(length: number): string {
  let text = '';
  while (text.length < length) {
    const pick = randomInt(4);
    if (pick === 0) text += String.fromCharCode(32 + randomInt(95));
    else if (pick === 1) text += String.fromCharCode(0x80 + randomInt(0x780));
    else if (pick === 2) text += String.fromCharCode(0x800 + randomInt(0xd000 - 0x800));
    else text += String.fromCodePoint(0x10000 + randomInt(0xfffff));
  }
  return text;
}

describe('HmacSha256Key', () => {
  it('agrees with createHmac on random keys (shorter, equal to and longer than a block) and messages', () => {
    for (let i = 0; i < 600; i++) {
      const key = randomBytes([0, 1, 32, 63, 64, 65, 100, 200][i % 8]!);
      const hmac = new HmacSha256Key(key, 16);
      // Several messages per key: the scratch buffer is reused, and grows for long ones.
      for (const length of [0, randomInt(40), randomInt(400), randomInt(3000)]) {
        const message = randomText(length);
        expect(hex(hmac, message)).toBe(reference(key, message));
      }
    }
  });

  it('answers the RFC 4231 test case 2 ("Jefe")', () => {
    expect(hex(new HmacSha256Key(Buffer.from('Jefe')), 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('does not let a long message leave bytes behind for a shorter one', () => {
    const key = randomBytes(48);
    const hmac = new HmacSha256Key(key, 8);
    hmac.digest('x'.repeat(5000));
    expect(hex(hmac, 'short')).toBe(reference(key, 'short'));
    expect(hex(hmac, '')).toBe(reference(key, ''));
  });

  it('returns a digest the next call does not overwrite', () => {
    const hmac = new HmacSha256Key(randomBytes(32));
    const first = hmac.digest('a');
    const copy = Buffer.from(first);
    hmac.digest('b');
    expect(first.equals(copy)).toBe(true);
  });
});
