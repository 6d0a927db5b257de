import { describe, expect, it } from 'vitest';
import type { FaultError } from '../../../src-shared/faults.js';
import { parseManifest, selects } from './manifest.js';

const roles = (includes: string[], excludes: string[] = []) =>
  parseManifest({ roles: { includes, excludes } }).sections.roles;

describe('manifest selectors', () => {
  it('match names, * and /regex/flags', () => {
    const s = roles(['reader', '/^ana/i'], ['/lyst$/']);
    expect(['reader', 'Analyst', 'anaconda', 'other'].filter((n) => selects(s, n))).toEqual(['reader', 'anaconda']);
    expect(selects(roles(['*']), 'anything')).toBe(true);
  });

  it('run on RE2: a pattern that backtracks exponentially in JavaScript answers at once', () => {
    // /^(a+)+$/ against 40 a's and a mismatch is about 2^40 steps for a backtracking engine: this
    // test would not finish. Role codes may be 100 characters, and manifests are saved in deployments.
    const s = roles(['/^(a+)+$/']);
    expect(selects(s, `${'a'.repeat(40)}_x`)).toBe(false);
    expect(selects(s, 'a'.repeat(100))).toBe(true);
  });

  it('refuses what RE2 cannot run or flags it does not know, naming the selector', () => {
    for (const bad of ['/(?=a)b/', '/(a)\\1/', '/a/q', '/(/']) {
      try {
        roles([bad]);
        expect.unreachable(`${bad} was accepted`);
      } catch (err) {
        expect((err as FaultError).fault).toMatchObject({
          errCode: 'service.invalidArgument.manifest',
          path: 'manifest.roles.includes[0]',
        });
      }
    }
    // g, y and u are harmless for a yes/no match
    expect(selects(roles(['/^r/gyu']), 'reader')).toBe(true);
  });
});
