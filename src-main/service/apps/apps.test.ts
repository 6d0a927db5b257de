import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FaultError } from '../../../src-shared/faults.js';
import { createHarness, type Harness } from '../testing/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

describe('app settings patches', () => {
  it('apply to the stored settings, not to a stale (cached) copy', () => {
    const stale = h.svc.apps.byKey(h.consoleAppKey)!;
    h.svc.apps.update(stale, { authDuration: 1200 }); // a change the holder of `stale` has not seen
    const after = h.svc.apps.update(stale, { expose: true });
    expect(after.settings).toMatchObject({ authDuration: 1200, expose: true });
  });

  it('answer notFound.app for an app that no longer exists, writing nothing', async () => {
    const { app } = await h.svc.apps.create(
      h.svc.orgs.byCode('demo')!.id,
      'session',
      { label: 'Gone' },
      h.svc.nowIso(),
    );
    h.svc.apps.remove(app);
    let thrown: unknown;
    try {
      h.svc.apps.update(app, { expose: true });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FaultError);
    expect((thrown as FaultError).fault.errCode).toBe('service.notFound.app');
    expect(h.svc.apps.byId(app.id)).toBeUndefined();
  });
});
