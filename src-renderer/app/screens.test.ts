import { describe, expect, it } from 'vitest';
import type { Route } from '../routing/route';
import { NAV_ITEMS, parseRoute, SCREEN_IDS, SCREENS, serializeRoute } from './screens';

/** Routes with state beyond the defaults, for screens whose state is easy to name here. */
const RICH: Route[] = [
  { screen: 'accounts', skip: 300, limit: 100, org: 'acme' },
  { screen: 'schemas', name: 'c_conversation' },
  { screen: 'tokens', pane: 'verify', org: 'acme' },
  { screen: 'browse', ...SCREENS.browse.parse(new URLSearchParams('c=accounts&where=%7B%22a%22%3A1%7D')) },
];

describe('screen registry', () => {
  it('round-trips every screen: parse(write(route)) = route, with and without an org', () => {
    for (const id of SCREEN_IDS) {
      const plain = parseRoute(`#/${id}`);
      expect(plain.screen).toBe(id);
      const withOrg: Route = { ...plain, org: 'acme-2' };
      for (const route of [plain, withOrg]) {
        const hash = serializeRoute(route);
        expect(hash.startsWith(`#/${id}`)).toBe(true);
        expect(parseRoute(hash)).toEqual(route);
      }
    }
  });

  it('round-trips routes that carry state', () => {
    for (const route of RICH) expect(parseRoute(serializeRoute(route))).toEqual(route);
    expect(RICH[3]).toMatchObject({ screen: 'browse', collection: 'accounts' });
  });

  it('lists every screen once in the sidebar, with a label and a section', () => {
    // Connections is listed only in the desktop app (its preload bridge); this test has none.
    expect(NAV_ITEMS.map((item) => item.screen)).toEqual(SCREEN_IDS.filter((id) => id !== 'connections'));
    expect(new Set(SCREEN_IDS).size).toBe(SCREEN_IDS.length);
    for (const item of NAV_ITEMS) {
      expect(item.label).not.toBe('');
      expect(item.section).not.toBe('');
    }
  });

  it('keeps the sidebar order the console has always had (Logs and Audit follow Scripts)', () => {
    expect(SCREEN_IDS).toEqual([
      'accounts',
      'browse',
      'views',
      'schemas',
      'scripts',
      'logs',
      'audit',
      'configuration',
      'demo-data',
      'apps',
      'tokens',
      'outbox',
      'accounts-admin',
      'roles',
      'scope-tester',
      'signed-requests',
      'api-reference',
      'connections',
    ]);
  });
});
