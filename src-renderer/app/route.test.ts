import { describe, expect, it } from 'vitest';
import { nextPage, previousPage, withPageSize } from '../features/accounts/accounts-route';
import { MAX_SKIP, withOrg, type AccountsRoute } from '../routing/route';
import { DEFAULT_ROUTE, parseRoute, serializeRoute } from './screens';

describe('parseRoute', () => {
  it('reads screen, skip, limit and org', () => {
    expect(parseRoute('#/accounts?skip=100&limit=50&org=acme-2')).toEqual({
      screen: 'accounts',
      skip: 100,
      limit: 50,
      org: 'acme-2',
    });
  });

  it('gives the default route for an empty or unknown hash', () => {
    expect(parseRoute('')).toEqual(DEFAULT_ROUTE);
    expect(parseRoute('#/')).toEqual(DEFAULT_ROUTE);
    expect(parseRoute('#/no-such-screen?skip=50')).toEqual(DEFAULT_ROUTE);
  });

  it('replaces values it cannot trust with defaults', () => {
    expect(parseRoute('#/accounts?skip=-5&limit=30&org=Bad_Org')).toEqual(DEFAULT_ROUTE);
    expect(parseRoute('#/accounts?skip=1e3&limit=abc')).toEqual(DEFAULT_ROUTE);
    expect((parseRoute('#/accounts?skip=9999999') as AccountsRoute).skip).toBe(MAX_SKIP);
  });
});

describe('serializeRoute', () => {
  it('round-trips through parseRoute', () => {
    const routes: AccountsRoute[] = [
      { screen: 'accounts', skip: 0, limit: 25 },
      { screen: 'accounts', skip: 100, limit: 50 },
      { screen: 'accounts', skip: 300, limit: 100, org: 'acme' },
    ];
    for (const route of routes) expect(parseRoute(serializeRoute(route))).toEqual(route);
  });

  it('writes the documented form', () => {
    expect(serializeRoute({ screen: 'accounts', skip: 100, limit: 50 })).toBe('#/accounts?skip=100&limit=50');
  });
});

describe('paging', () => {
  const route: AccountsRoute = { screen: 'accounts', skip: 50, limit: 25 };

  it('moves by one page and never below zero', () => {
    expect(nextPage(route).skip).toBe(75);
    expect(previousPage(route).skip).toBe(25);
    expect(previousPage({ ...route, skip: 10 }).skip).toBe(0);
  });

  it('keeps the first visible row when the page size changes', () => {
    expect(withPageSize({ ...route, skip: 75 }, 50)).toEqual({ screen: 'accounts', skip: 50, limit: 50 });
    expect(withPageSize({ ...route, skip: 75 }, 100).skip).toBe(0);
  });
});

describe('withOrg', () => {
  it('leaves the default org out of the URL', () => {
    const route: AccountsRoute = { screen: 'accounts', skip: 0, limit: 25, org: 'acme' };
    expect(withOrg(route, 'demo', 'demo')).not.toHaveProperty('org');
    expect(withOrg(route, 'beta', 'demo').org).toBe('beta');
  });
});
