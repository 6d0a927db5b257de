import { describe, expect, it } from 'vitest';
import { parseRoute, serializeRoute } from '../../app/screens';
import type { BrowseRoute } from '../../routing/route';
import { DEFAULT_BROWSE_STATE } from './browse-route';

describe('browse route codec', () => {
  it('round-trips every field through the hash', () => {
    const routes: BrowseRoute[] = [
      { screen: 'browse', ...DEFAULT_BROWSE_STATE },
      {
        screen: 'browse',
        collection: 'accounts',
        where: '{"name.last":{"$regex":"/^s/i"},"$or":[{"locked":true},{"c_study_groups":{"$size":0}}]}',
        sort: '{"name.last":1,"name.first":-1}',
        paths: ['email', 'name.first'],
        limit: 1000,
        skip: 250,
        view: 'json',
        cols: ['_id', 'email'],
        record: '01a1fd223e390052e192f6d9',
        org: 'acme',
      },
      {
        screen: 'browse',
        collection: 'c_patientfiles',
        paths: [],
        limit: 25,
        skip: 0,
        cursor: { dir: 'before', id: '01a1fd2266ff00c11a20295c' },
        view: 'table',
      },
    ];
    for (const route of routes) expect(parseRoute(serializeRoute(route))).toEqual(route);
  });

  it('keeps where text with characters that need escaping', () => {
    const where = '{"email":{"$regex":"/a&b=c#d%20?/"}}';
    const route: BrowseRoute = { screen: 'browse', ...DEFAULT_BROWSE_STATE, collection: 'accounts', where };
    const hash = serializeRoute(route);
    expect(hash).not.toContain('#d');
    expect((parseRoute(hash) as BrowseRoute).where).toBe(where);
  });

  it('drops values it cannot trust', () => {
    const route = parseRoute(
      '#/browse?c=ac-counts&limit=5000&skip=-1&after=xyz&paths=ok,bad path,,a..b,name.first&record=nope&view=grid',
    );
    expect(route).toEqual({ screen: 'browse', ...DEFAULT_BROWSE_STATE, paths: ['ok', 'name.first'] });
  });

  it('reads the other screens', () => {
    expect(parseRoute('#/schemas?name=c_conversation')).toEqual({ screen: 'schemas', name: 'c_conversation' });
    expect(parseRoute('#/demo-data')).toEqual({ screen: 'demo-data' });
    expect(serializeRoute({ screen: 'schemas' })).toBe('#/schemas');
  });
});
