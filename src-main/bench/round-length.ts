/**
 * How long a throughput round lasts for one workload. A round counts the requests it completed;
 * one still running when the round ends is not counted. At a million accounts QM takes about a
 * quarter of a second a request, so a round of half a second completed none on some sides and
 * the report read 0.00 and NaN. A round therefore lasts long enough for the slowest side (by its
 * warm-up) to complete `MIN_ROUND_REQUESTS`, up to `MAX_ROUND_SECONDS`.
 */
export const MIN_ROUND_REQUESTS = 25;
export const MAX_ROUND_SECONDS = 8;

/** `warmupRps`: each side's requests a second in its warm-up; `seconds`: the settings' round. */
export function roundSeconds(warmupRps: readonly number[], seconds: number): number {
  const slowest = Math.min(...warmupRps.map((r) => (Number.isFinite(r) && r > 0 ? r : 0)));
  if (slowest === 0) return MAX_ROUND_SECONDS;
  const needed = MIN_ROUND_REQUESTS / slowest;
  // Whole tenths, so the report prints what ran.
  return Math.min(MAX_ROUND_SECONDS, Math.max(seconds, Math.ceil(needed * 10) / 10));
}
