import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness.js';
import { OutboxRepository } from './outbox.js';

let h: Harness;
let repo: OutboxRepository;
let orgId: number;
beforeEach(async () => {
  h = await createHarness();
  repo = new OutboxRepository(h.svc.db, h.svc.cipher);
  orgId = h.svc.orgs.byCode('demo')!.id;
});
afterEach(async () => h.close());

const message = (n: number) => ({
  kind: 'verification' as const,
  recipient: `user${n}@example.test`,
  subject: `Subject ${n}`,
  body: `secret body ${n}`,
});

describe('outbox', () => {
  it('lists newest first with skip, limit and hasMore', () => {
    for (let n = 1; n <= 5; n++) {
      repo.add(orgId, message(n), h.clock.now());
      h.clock.advance(1000);
    }
    const first = repo.list(orgId, { skip: 0, limit: 2 });
    expect(first.data.map((m) => m.subject)).toEqual(['Subject 5', 'Subject 4']);
    expect(first.hasMore).toBe(true);
    const last = repo.list(orgId, { skip: 4, limit: 2 });
    expect(last.data.map((m) => m.subject)).toEqual(['Subject 1']);
    expect(last.hasMore).toBe(false);
    expect(repo.list(orgId, { skip: 3, limit: 2 }).hasMore).toBe(false);
    expect(first.data[0]).toEqual({
      _id: expect.stringMatching(/^\d+$/),
      object: 'message',
      kind: 'verification',
      recipient: 'user5@example.test',
      subject: 'Subject 5',
      body: 'secret body 5',
      created: new Date(Date.parse('2026-01-15T12:00:04.000Z')).toISOString(),
    });
  });

  it('keeps bodies encrypted at rest and orgs apart', () => {
    repo.add(orgId, message(1), h.clock.now());
    const raw = JSON.stringify(h.svc.db.prepare('SELECT * FROM outbox').all());
    expect(raw).not.toContain('secret body');
    expect(repo.list(orgId + 1, { skip: 0, limit: 10 }).data).toEqual([]);
  });
});
