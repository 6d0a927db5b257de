import { describe, expect, it } from 'vitest';
import { tokenParts } from './token-parts';

describe('tokenParts', () => {
  it('cuts a JWT into header, payload and signature, dots kept between them', () => {
    expect(tokenParts('Bearer aaa.bbb.ccc \n')).toEqual([
      { part: 'header', text: 'aaa' },
      '.',
      { part: 'payload', text: 'bbb' },
      '.',
      { part: 'signature', text: 'ccc' },
    ]);
  });

  it('marks what a JWT does not have, and gives nothing for no text', () => {
    expect(tokenParts('a.b.c.d').at(-1)).toEqual({ part: 'extra', text: 'd' });
    expect(tokenParts('just-one')).toEqual([{ part: 'header', text: 'just-one' }]);
    expect(tokenParts('   ')).toEqual([]);
  });
});
