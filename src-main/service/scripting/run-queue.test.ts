/**
 * The fair queue (issue 38, Medium 2), on its own: who goes next, the bounds that answer
 * `service.throttled.script`, and the wait limit on a frozen clock.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { FairQueue, type QueueLimits } from './run-queue.js';

const LIMITS: QueueLimits = {
  maxBusyPerOrg: 2,
  maxQueuedPerCaller: 3,
  maxQueuedPerOrg: 5,
  maxQueued: 8,
  maxWaitMs: 1000,
};

function queue(limits: Partial<QueueLimits> = {}, clock = new ManualClock(0)) {
  return new FairQueue<string>({ ...LIMITS, ...limits }, () => clock.now());
}

/** Takes everything, with `busy` runs per org, and answers the items in the order taken. */
function drain(q: FairQueue<string>, busy: Record<string, number> = {}): string[] {
  const out: string[] = [];
  for (let next = q.take((org) => busy[org] ?? 0); next; next = q.take((org) => busy[org] ?? 0)) out.push(next.item);
  return out;
}

describe('FairQueue', () => {
  it("gives orgs turns: another org's run does not wait behind one org's backlog", () => {
    const q = queue({ maxQueuedPerCaller: 10, maxQueuedPerOrg: 10, maxQueued: 20 });
    for (let i = 1; i <= 6; i++) expect(q.add(`a${i}`, { org: 'A', caller: 'x' })).toBeUndefined();
    q.add('b1', { org: 'B', caller: 'y' });
    q.add('c1', { org: 'C', caller: 'z' });
    // A was first, so it goes first; then B and C before A's second run.
    expect(drain(q)).toEqual(['a1', 'b1', 'c1', 'a2', 'a3', 'a4', 'a5', 'a6']);
  });

  it('inside an org, gives its callers turns (one anonymous address cannot starve the rest)', () => {
    const q = queue();
    for (const item of ['ip1', 'ip2', 'ip3']) q.add(item, { org: 'A', caller: 'ip:10.0.0.1' });
    q.add('admin', { org: 'A', caller: 'account-1' });
    expect(drain(q)).toEqual(['ip1', 'admin', 'ip2', 'ip3']);
  });

  it('skips an org at maxBusyPerOrg, and serves the org with the fewest busy runs first', () => {
    const q = queue();
    q.add('a1', { org: 'A', caller: 'x' });
    q.add('b1', { org: 'B', caller: 'y' });
    expect(q.take((org) => (org === 'A' ? 2 : 0))?.item).toBe('b1');
    expect(q.take((org) => (org === 'A' ? 2 : 0))).toBeUndefined();
    expect(q.size).toBe(1);
    q.add('b2', { org: 'B', caller: 'y' });
    // A has one busy run, B none: B goes first although A has waited longer.
    expect(q.take((org) => (org === 'A' ? 1 : 0))?.item).toBe('b2');
    expect(q.take((org) => (org === 'A' ? 1 : 0))?.item).toBe('a1');
  });

  it('answers throttled past the bounds per caller, per org and in all', () => {
    const q = queue();
    for (let i = 0; i < 3; i++) expect(q.add(`x${i}`, { org: 'A', caller: 'x' })).toBeUndefined();
    expect(q.add('x3', { org: 'A', caller: 'x' })).toMatchObject({
      errCode: 'service.throttled.script',
      code: 'kThrottled',
      status: 429,
    });
    q.add('y0', { org: 'A', caller: 'y' });
    q.add('y1', { org: 'A', caller: 'y' });
    expect(q.add('z0', { org: 'A', caller: 'z' })?.reason).toMatch(/This org already has 5 scripts waiting/);
    for (let i = 0; i < 3; i++) q.add(`b${i}`, { org: 'B', caller: `b${i}` });
    expect(q.add('c0', { org: 'C', caller: 'c' })?.reason).toMatch(/Too many scripts are waiting/);
    expect(q.size).toBe(8);
    expect(drain(q)).toHaveLength(8);
  });

  it('lets runs wait at most maxWaitMs of the clock', () => {
    const clock = new ManualClock(10_000);
    const q = queue({}, clock);
    q.add('early', { org: 'A', caller: 'x' });
    clock.advance(400);
    q.add('later', { org: 'B', caller: 'y' });
    expect(q.nextDeadline()).toBe(11_000);
    clock.advance(599);
    expect(q.expire()).toEqual([]);
    clock.advance(1);
    expect(q.expire().map((w) => w.item)).toEqual(['early']);
    expect(q.nextDeadline()).toBe(11_400);
    expect(drain(q)).toEqual(['later']);
    expect(q.nextDeadline()).toBeUndefined();
  });
});
