/**
 * The token−session latency difference with its uncertainty. The difference is measured cycle by
 * cycle (a token turn's median minus the session turn's median in the same cycle); its median over
 * the cycles is the figure the bench judges against the 20 µs target. On a list page of several
 * milliseconds the spread between cycles is hundreds of µs, so that median moves by more than the
 * target from run to run (the Q2p cell read −287, −38 and +136 µs in three runs of one build): a
 * bootstrap interval says how far it could, so a reader can tell a real cost from the noise.
 */
import { Rng } from '../service/demo/random.js';
import { median } from './http-client.js';

export interface PairedDifference {
  /** Median of the per-cycle differences. */
  median: number;
  /** A 95 % bootstrap percentile interval of that median. */
  low: number;
  high: number;
}

/** Resamples of the bootstrap: enough for stable 2.5 % and 97.5 % percentiles. */
const RESAMPLES = 2000;

/**
 * Median of `differences` and its 95 % percentile-bootstrap interval (resampling the cycles with
 * replacement). Seeded, so the same measurements always print the same interval.
 */
export function pairedDifference(differences: number[], seed = 1): PairedDifference {
  if (differences.length === 0) return { median: NaN, low: NaN, high: NaN };
  const rng = new Rng(seed);
  const medians: number[] = [];
  const sample = new Array<number>(differences.length);
  for (let r = 0; r < RESAMPLES; r++) {
    for (let i = 0; i < sample.length; i++) sample[i] = differences[rng.int(differences.length)]!;
    medians.push(median(sample));
  }
  medians.sort((a, b) => a - b);
  return {
    median: median(differences),
    low: medians[Math.floor(RESAMPLES * 0.025)]!,
    high: medians[Math.ceil(RESAMPLES * 0.975) - 1]!,
  };
}

/**
 * A side's throughput ratio to the reference (the floor) as the median of per-round ratios: round
 * k of the side divided by round k of the reference, measured seconds apart. The machine's speed
 * changes within seconds, so a ratio of each side's medians can pair the side's fast rounds with
 * the reference's slow ones.
 */
export function pairedRatio(side: readonly number[], reference: readonly number[]): number {
  if (side.length !== reference.length) throw new Error(`${side.length} rounds against ${reference.length}`);
  return median(side.map((value, k) => value / reference[k]!));
}
