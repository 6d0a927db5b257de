/**
 * The password rule, shared by the service (the gate) and the console (the hint and the live
 * check), so both always agree. Length bounds plus a list of common passwords (zxcvbn-ts's
 * frequency list, about 30,000 entries): those are the first guesses of any attacker.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

/** One sentence, shown by the console as the field's hint. */
export const PASSWORD_RULE_HINT = `At least ${MIN_PASSWORD_LENGTH} characters, and not a common password (such as "password123").`;

let common: Set<string> | undefined;
const commonPasswords = () => (common ??= new Set(dictionary.passwords.map((p) => p.toLowerCase())));

/**
 * Why `password` is refused, in words for the person choosing it; undefined when it passes.
 * A common word with digits or symbols appended ("password123", "dragon!") is still common.
 */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  const lower = password.normalize('NFKC').toLowerCase();
  const stem = lower.replace(/[\d\W_]+$/u, '');
  const list = commonPasswords();
  if (list.has(lower) || list.has(lower.trim()) || (stem.length >= 3 && list.has(stem))) {
    return 'This is one of the most common passwords; choose something others would not guess.';
  }
  if (new Set(lower).size < 3) return 'Use more than two different characters.';
  return undefined;
}
