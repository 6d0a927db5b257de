/**
 * A random sample of a collection, read with ordinary list requests (so the same access rules
 * apply): `size` records taken as short runs at random places of the `_id` order, instead of the
 * newest `size` only. Runs rather than single records keep it to a few requests; their places are
 * uniform over the whole collection (as far as skip paging reaches, `MAX_SKIP`).
 */
import { MAX_SKIP } from '../../../src-shared/query/limits';

export const SAMPLE_RUNS = 25;

export interface SampleRequest {
  skip: number;
  limit: number;
}

/**
 * The list requests of a random sample of `size` out of `total` records; `random` returns numbers
 * in [0, 1) (Math.random, or a seeded one in tests). All of a small collection is one request.
 */
export function samplePlan(total: number, size: number, random: () => number): SampleRequest[] {
  if (total <= size) return [{ skip: 0, limit: Math.max(total, 1) }];
  const runs = Math.min(SAMPLE_RUNS, size);
  const base = Math.floor(size / runs);
  const lengths = Array.from({ length: runs }, (_, i) => base + (i < size % runs ? 1 : 0));
  // Each run gets its own slice of the reachable range, and a random place inside it: the runs
  // never overlap and every record has about the same chance.
  const reachable = Math.min(total, MAX_SKIP + base);
  const slice = reachable / runs;
  return lengths.map((length, i) => {
    const room = Math.max(0, Math.floor(slice) - length);
    const skip = Math.min(Math.floor(i * slice) + Math.floor(random() * (room + 1)), MAX_SKIP);
    return { skip, limit: length };
  });
}
