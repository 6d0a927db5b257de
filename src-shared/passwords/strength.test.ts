import { describe, expect, it } from 'vitest';
import { MIN_PASSWORD_LENGTH, PASSWORD_RULE_HINT, passwordProblem } from './strength';

describe('passwordProblem', () => {
  it('refuses common passwords, also with digits or symbols appended and in any case', () => {
    for (const p of ['password', 'password123', 'Password1!', 'PASSWORD', '12345678', 'qwertyuiop', 'iloveyou2']) {
      expect(passwordProblem(p), p).toMatch(/common/);
    }
  });

  it('refuses short, over-long and two-character passwords', () => {
    expect(passwordProblem('qz7vk3w')).toMatch(/at least 8/);
    expect(passwordProblem('x'.repeat(1025))).toMatch(/at most/);
    expect(passwordProblem('abababababab')).toMatch(/different characters/);
  });

  it('accepts the passphrases the tests and demos use', () => {
    for (const p of [
      'correct horse battery',
      'a long user password',
      'a strong password',
      'qz7vk3wp',
      'pw pw pw pw pw',
    ]) {
      expect(passwordProblem(p), p).toBeUndefined();
    }
  });

  it('states the rule in the hint the console shows', () => {
    expect(PASSWORD_RULE_HINT).toContain(String(MIN_PASSWORD_LENGTH));
    expect(PASSWORD_RULE_HINT).toMatch(/common/);
  });
});
