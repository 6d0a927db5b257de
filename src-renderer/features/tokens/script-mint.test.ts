import { describe, expect, it } from 'vitest';
import { MINT_SCRIPT, scriptMintArguments, tokenOfRunValue } from './script-mint';

describe('script mint', () => {
  it('moves the app key out of the options and adds includeEmail', () => {
    const args = scriptMintArguments({ app: 'KEY1', scope: ['*'], permanent: true, maxUses: 2 }, 'a'.repeat(24), true);
    expect(args).toEqual({
      key: 'KEY1',
      subject: 'a'.repeat(24),
      options: { scope: ['*'], permanent: true, maxUses: 2, includeEmail: true },
    });
  });

  it('calls createAuthToken with the arguments only (no values in the source)', () => {
    expect(MINT_SCRIPT).toContain('org.objects.accounts.createAuthToken(key, subject, options)');
    expect(MINT_SCRIPT).toContain('script.arguments');
  });

  it('accepts only a JWT-shaped string as the answer', () => {
    expect(tokenOfRunValue('aaa.bbb.ccc')).toBe('aaa.bbb.ccc');
    expect(tokenOfRunValue({ token: 'aaa.bbb.ccc' })).toBeNull();
    expect(tokenOfRunValue('not a token')).toBeNull();
  });
});
