import { describe, expect, it } from 'vitest';
import type { AccountsRoute } from '../../routing/route';
import { parseAccountsParams, withSearch, writeAccountsParams } from './accounts-route';

describe('the accounts search in the URL', () => {
  it('reads and writes q with the page', () => {
    const state = parseAccountsParams(new URLSearchParams('q=smi&skip=50&limit=50'));
    expect(state).toEqual({ q: 'smi', skip: 50, limit: 50 });
    const params = new URLSearchParams();
    writeAccountsParams(state, params);
    expect(params.toString()).toBe('q=smi&skip=50&limit=50');
  });

  it('drops a blank or overlong search', () => {
    expect(parseAccountsParams(new URLSearchParams('q=%20%20')).q).toBeUndefined();
    expect(parseAccountsParams(new URLSearchParams(`q=${'a'.repeat(201)}`)).q).toBeUndefined();
  });

  it('a new search starts on the first page; an empty one clears it', () => {
    const route: AccountsRoute = { screen: 'accounts', skip: 100, limit: 50, q: 'ann' };
    expect(withSearch(route, 'bob')).toEqual({ screen: 'accounts', skip: 0, limit: 50, q: 'bob' });
    expect(withSearch(route, ' ')).toEqual({ screen: 'accounts', skip: 0, limit: 50 });
  });
});
