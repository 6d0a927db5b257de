/** The `format: 'email'` check (an account's email): which strings are email addresses. */
import { describe, expect, it } from 'vitest';
import { isEmailAddress } from './email-address.js';

const VALID = [
  'a@b.c',
  'admin@example.test',
  'New.User@Example.test',
  '  padded@example.test  ',
  "o'brien+tag@mail.example.ie",
  'zoë@exämple.de',
  'admin@localhost',
  `${'a'.repeat(64)}@${'b'.repeat(180)}.test`, // 250 characters
];
const INVALID = [
  'bad',
  'also bad',
  'still not an email',
  'x@',
  '@example.test',
  'a@@b.c',
  'a@b@c.d',
  'x@.example',
  'x@a..b',
  'x@a.b.',
  'a b@c.d',
  'a@b.c d',
  'a\t@b.c',
  'a\u0000@b.c',
  'a\u202e@b.c',
  '',
  `${'a'.repeat(64)}@${'b'.repeat(186)}.test`, // 256 characters
];

describe('isEmailAddress', () => {
  it.each(VALID)('accepts %j', (email) => {
    expect(isEmailAddress(email)).toBe(true);
  });

  it.each(INVALID)('refuses %j', (email) => {
    expect(isEmailAddress(email)).toBe(false);
  });
});
