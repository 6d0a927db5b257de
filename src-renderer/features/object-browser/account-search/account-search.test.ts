import { describe, expect, it } from 'vitest';
import { searchWhere } from '../../../api/account-admin';
import { accountSearchTextOf, accountSearchWhereText } from './account-search';

describe('account search in the object browser', () => {
  it('sends exactly the Manage-accounts search where', () => {
    for (const text of ['ann', 'user00', 'a.b+c@x.test', '0123456789abcdef01234567']) {
      expect(accountSearchWhereText(text)).toBe(JSON.stringify(searchWhere(text)));
    }
    expect(accountSearchWhereText('  ')).toBeUndefined();
  });

  it('reads the search text back from the where it made, escapes included', () => {
    for (const text of [
      'ann',
      'Smith',
      'a.b+c@x.test',
      'odd (text) [with] $ ^ | / \\ chars',
      '0123456789abcdef01234567',
    ]) {
      expect(accountSearchTextOf(accountSearchWhereText(text))).toBe(text.trim());
    }
  });

  it('leaves the box empty for any other where', () => {
    expect(accountSearchTextOf(undefined)).toBe('');
    expect(accountSearchTextOf('{"locale":"de_DE"}')).toBe('');
    expect(accountSearchTextOf('not json')).toBe('');
    // Same shape but one branch edited by hand: not what the box would send, so not shown as a search.
    const edited = JSON.parse(accountSearchWhereText('ann') ?? '{}') as { $or: unknown[] };
    edited.$or.pop();
    expect(accountSearchTextOf(JSON.stringify(edited))).toBe('');
    expect(accountSearchTextOf('{"_id":"0123456789abcdef01234567","email":"x"}')).toBe('');
  });
});
