/**
 * A trigger record's `configuration.paths` (docs/scripting.md#triggers): an update runs it only
 * when it touches one of the paths; creates always do; a bad list is refused on save.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { touchesPaths, triggerPathsProblem } from './trigger-paths.js';

describe('touchesPaths', () => {
  it.each([
    [['c_title'], ['c_title'], true],
    [['c_title'], ['c_other'], false],
    [['name'], ['name.first'], true],
    [['name.first'], ['name'], true],
    [['name.first'], ['name.last'], false],
    [['c_a'], ['c_ab'], false],
    [['c_a', 'c_b'], ['c_x', 'c_b'], true],
    [['c_a'], [], false],
  ] as const)('paths %j, modified %j → %s', (paths, modified, expected) => {
    expect(touchesPaths(paths, modified)).toBe(expected);
  });

  it('refuses what is not a list of property paths', () => {
    expect(triggerPathsProblem(undefined)).toBeUndefined();
    expect(triggerPathsProblem(['c_title', 'name.first'])).toBeUndefined();
    for (const bad of ['c_title', [], [3], ['a b'], ['c_x.'], Array.from({ length: 51 }, () => 'c_x')]) {
      expect(triggerPathsProblem(bad)).toEqual(expect.any(String));
    }
  });
});

describe('a trigger record with paths', () => {
  let h: Harness;
  let admin: TestClient;
  beforeAll(async () => {
    h = await createHarness();
    admin = new TestClient(h);
    await admin.login();
  }, 60_000);
  afterAll(async () => h.close());

  const trigger = (event: string, paths: unknown) =>
    admin.post('/scripts', {
      label: `paths ${event}`,
      type: 'trigger',
      script: "throw Fault.create('service.accessDenied.custom', {reason: 'refused by a paths trigger'})",
      configuration: { object: 'c_conversation', event, paths },
    });

  it('is refused on save when paths is not a list of property paths, naming configuration.paths', async () => {
    for (const bad of ['c_title', ['a b'], []]) {
      const res = await trigger('update.before', bad);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json() as { path?: string; faults?: { path?: string }[] };
      expect([body.path, ...(body.faults ?? []).map((f) => f.path)]).toContain('configuration.paths');
    }
  });

  it('runs on an update that touches a listed path, not on one that does not; a create always runs it', async () => {
    const made = await admin.post('/c_conversations', { c_title: 'first' });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json()._id as string;
    const saved = await trigger('update.before', ['c_title']);
    expect(saved.statusCode, saved.body).toBe(200);
    const other = await admin.patch(`/c_conversations/${id}`, { c_status: 'open' });
    const title = await admin.patch(`/c_conversations/${id}`, { c_title: 'second' });
    expect(title.statusCode).toBe(403);
    expect(title.json().reason).toBe('refused by a paths trigger');
    expect(other.statusCode, other.body).not.toBe(403);
    const create = await trigger('create.before', ['c_title']);
    expect(create.statusCode, create.body).toBe(200);
    expect((await admin.post('/c_conversations', { c_status: 'open' })).statusCode).toBe(403);
  });

  it("applies to a library's @trigger paths option the same way", async () => {
    const lib = await admin.post('/scripts', {
      label: 'c_paths_lib',
      name: 'c_paths_lib',
      type: 'library',
      active: true,
      configuration: { export: 'c_paths_lib' },
      script: `import { trigger } from 'decorators'
class Rules {
  @trigger('update.before', { object: 'c_conversation', paths: ['c_status'] })
  static stop() { throw Fault.create('service.accessDenied.custom', { reason: 'status is locked' }) }
}
module.exports = Rules`,
    });
    expect(lib.statusCode, lib.body).toBe(200);
    for (const s of (await admin.get('/scripts?limit=100')).json().data as { _id: string; type: string }[]) {
      if (s.type === 'trigger') await admin.delete(`/scripts/${s._id}`);
    }
    const made = await admin.post('/c_conversations', { c_title: 'lib' });
    const id = made.json()._id as string;
    expect((await admin.patch(`/c_conversations/${id}`, { c_title: 'renamed' })).statusCode).toBe(200);
    const status = await admin.patch(`/c_conversations/${id}`, { c_status: 'closed' });
    expect(status.statusCode).toBe(403);
    expect(status.json().reason).toBe('status is locked');
  });
});
