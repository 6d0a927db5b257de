/** The list arguments a query string carries: picked once each, and never silently ignored. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { FaultError } from '../../../src-shared/faults.js';
import { rawListArgs } from './list-args.js';

/** The fault `rawListArgs` throws for `query` (or `undefined` when it picks the arguments). */
function refusalOf(query: Record<string, unknown>, prefix = '') {
  try {
    rawListArgs(query, prefix);
    return undefined;
  } catch (e) {
    if (!(e instanceof FaultError)) throw e;
    return { errCode: e.fault.errCode, path: e.fault.path };
  }
}
const refusal = (path: string) => ({ errCode: 'service.invalidArgument.query', path });

describe('rawListArgs', () => {
  it('picks where, sort, skip, limit and paths (paths[] or paths), prefixed or not', () => {
    const q = { where: '{"a":1}', sort: '{"a":-1}', skip: '2', limit: '3', 'paths[]': ['a', 'b'], cb: '17' };
    expect(rawListArgs(q, '')).toEqual({
      where: '{"a":1}',
      sort: '{"a":-1}',
      skip: '2',
      limit: '3',
      paths: ['a', 'b'],
    });
    expect(rawListArgs({ 'connections.limit': '5', 'connections.paths': 'x' }, 'connections.')).toEqual({
      limit: '5',
      paths: ['x'],
    });
  });

  it('refuses an argument given twice', () => {
    expect(refusalOf({ limit: ['1', '2'] })).toEqual(refusal('limit'));
  });

  it('refuses bracketed forms of the list arguments, naming the key', () => {
    for (const key of ['where[name.last]', 'where[]', 'limit[]', 'skip[]', 'sort[created]', 'sort[]', 'paths[0]']) {
      expect(refusalOf({ [key]: '5' }), key).toEqual(refusal(key));
    }
    const prefixed = 'connections.where[state]';
    expect(refusalOf({ [prefixed]: 'active' }, 'connections.')).toEqual(refusal(prefixed));
  });

  it('leaves other query keys alone, bracketed or not', () => {
    const q = { _: '1712', 'filter[x]': '1', 'wherever[a]': '2', 'connections.where[a]': '3', 'paths[]': 'a' };
    expect(rawListArgs(q, '')).toEqual({ paths: ['a'] });
  });
});

describe('over HTTP', () => {
  let h: Harness;
  let admin: TestClient;
  beforeAll(async () => {
    h = await createHarness();
    admin = new TestClient(h);
    await admin.login();
  }, 60_000);
  afterAll(async () => h.close());

  it('a bracketed list argument is a 400 invalidArgument.query fault, not the default page', async () => {
    for (const query of [
      'where[name.last]=Smith',
      'where[]=%7B%7D',
      'limit[]=5',
      'skip[]=300',
      'sort%5Bcreated%5D=1',
    ]) {
      const res = await admin.get(`/accounts?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ object: 'fault', errCode: 'service.invalidArgument.query' });
    }
    const busted = await admin.get('/accounts?_=1712&paths[]=email');
    expect(busted.statusCode, busted.body).toBe(200);
    expect(busted.json()).toMatchObject({ object: 'list' });
  });
});
