import { describe, expect, it } from 'vitest';
import type { Route } from '../routing/route';
import { LastRoutes } from './last-routes';

describe('LastRoutes', () => {
  it('returns the route a screen was left with, per org', () => {
    const last = new LastRoutes();
    const apps: Route = { screen: 'apps', key: 'abc', tab: 'keys' };
    last.remember(apps);
    last.remember({ screen: 'tokens', pane: 'mint', org: 'acme' });
    expect(last.routeFor('apps', undefined)).toEqual(apps);
    expect(last.routeFor('apps', 'acme')).toBeUndefined();
    expect(last.routeFor('tokens', 'acme')).toEqual({ screen: 'tokens', pane: 'mint', org: 'acme' });
    expect(last.routeFor('roles', undefined)).toBeUndefined();
  });

  it('keeps only the latest route of a screen', () => {
    const last = new LastRoutes();
    last.remember({ screen: 'apps', key: 'one', tab: 'settings' });
    last.remember({ screen: 'apps', key: 'two', tab: 'sessions' });
    expect(last.routeFor('apps', undefined)).toMatchObject({ key: 'two', tab: 'sessions' });
  });
});
