/**
 * A policy's `rateLimit` (the original's: at most `rateLimitCount` requests the policy applies to
 * per `rateLimitWindow` seconds, counted per the `rateLimitElements` of the request), kept in
 * memory per service process. Past the count: `throttled.policy` (429) with `Retry-After`.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { PolicyDef } from './policy-def.js';
import type { RequestFacts } from './match.js';

interface Window {
  count: number;
  resetAt: number;
}

/** Bounded: past this many windows the expired ones go, and if none had expired, all of them. */
const MAX_WINDOWS = 50_000;
const windows = new WeakMap<Service, Map<string, Window>>();

/** Counts the request against the policy's limit; sets the `X-Rate-Limit-*` headers; throws past it. */
export function countRequest(
  svc: Service,
  org: Org,
  policy: PolicyDef,
  facts: RequestFacts,
  headers: Record<string, string>,
): void {
  const limit = policy.rateLimit;
  if (!limit) return;
  let byKey = windows.get(svc);
  if (!byKey) windows.set(svc, (byKey = new Map()));
  const parts = limit.elements.map((e) =>
    e === 'ip' ? facts.ip : e === 'app' ? (facts.app?.id ?? '') : (facts.principal?.accountId ?? 'anonymous'),
  );
  // Keyed by org first: one org's policies never count another org's requests.
  const key = `${org.id}\u0000${policy.id}\u0000${parts.join('\u0000')}`;
  const now = svc.clock.now();
  let w = byKey.get(key);
  if (!w || w.resetAt <= now) {
    if (byKey.size >= MAX_WINDOWS) prune(byKey, now);
    byKey.set(key, (w = { count: 0, resetAt: now + limit.windowSeconds * 1000 }));
  }
  w.count++;
  const resetSeconds = String(Math.max(1, Math.ceil((w.resetAt - now) / 1000)));
  headers['X-Rate-Limit-Limit'] = String(limit.count);
  headers['X-Rate-Limit-Remaining'] = String(Math.max(0, limit.count - w.count));
  headers['X-Rate-Limit-Reset'] = resetSeconds;
  if (w.count > limit.count) {
    headers['Retry-After'] = resetSeconds;
    throw fault('throttled', 'policy', { reason: limit.reason });
  }
}

function prune(byKey: Map<string, Window>, now: number): void {
  for (const [key, w] of byKey) if (w.resetAt <= now) byKey.delete(key);
  if (byKey.size >= MAX_WINDOWS) byKey.clear();
}
