/** The bench's report: one table per size of ratios to the floor, p50 latencies, memory and seeding. */
import type { MeasureSettings } from './measure.js';
import type { PairedDifference } from './paired-difference.js';

/** Targets: the throughput ratio ≥ 0.67 of the floor, walk time ≤ 1.5×, token p50 ≤ session p50 + 20 µs. */
export const TARGET = { throughput: 2 / 3, walk: 1.5, tokenExtraUs: 20, rssMb: 300, seedSeconds: 60 };

export interface SizeReport {
  size: number;
  seedSeconds?: number;
  walked: number;
  rows: {
    label: string;
    kind: 'throughput' | 'walk';
    floor: string;
    cells: Map<string, { ratio: number; p50Us?: number; vsSession?: PairedDifference | undefined }>;
    floorP50Us?: number;
  }[];
  peak: { totalMb: number; anonMb: number };
}

const mark = (ok: boolean) => (ok ? '✓' : '✗');

export function print(r: SizeReport, names: string[], settings: MeasureSettings): void {
  const { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS } = settings;
  console.log(`\n### ${r.size.toLocaleString('en-US')} accounts\n`);
  console.log(
    `Throughput ÷ floor (target ≥ ${TARGET.throughput.toFixed(2)}); Q2: walk time ÷ floor's (target ≤ ${TARGET.walk}×). ` +
      `${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s; each ratio the median of per-round ratios.\n`,
  );
  console.log(`| query | floor | ${names.join(' | ')} |`);
  console.log(`|---|---|${names.map(() => '---|').join('')}`);
  for (const row of r.rows) {
    const cells = names.map((n) => {
      const c = row.cells.get(n)!;
      return row.kind === 'walk'
        ? `${c.ratio.toFixed(2)}× ${mark(c.ratio <= TARGET.walk)}`
        : `${c.ratio.toFixed(2)} ${mark(c.ratio >= TARGET.throughput)}`;
    });
    console.log(`| ${row.label} | ${row.floor} | ${cells.join(' | ')} |`);
  }
  const timed = r.rows.filter((row) => row.kind === 'throughput');
  if (timed.length > 0) {
    console.log(
      `\nSingle-connection p50 latency, µs, every side in short turns; a token's difference to the session is ` +
        `the median over cycles of the two turns' medians (target: at most ${TARGET.tokenExtraUs} µs), then its 95 % ` +
        `bootstrap interval over the cycles: where that spans more than the target, the run cannot tell.\n`,
    );
    console.log(`| query | floor | ${names.join(' | ')} |`);
    console.log(`|---|---|${names.map(() => '---|').join('')}`);
    for (const row of timed) {
      const cells = names.map((n) => {
        const us = row.cells.get(n)!.p50Us!;
        const extra = n.startsWith('token') ? row.cells.get(n)!.vsSession : undefined;
        return `${us.toFixed(0)}${extra !== undefined ? ` (${versusSession(extra)})` : ''}`;
      });
      console.log(`| ${row.label} | ${row.floorP50Us!.toFixed(0)} | ${cells.join(' | ')} |`);
    }
  }
  console.log(
    `\nService RSS peak ${r.peak.totalMb.toFixed(0)} MB (anonymous ${r.peak.anonMb.toFixed(0)} MB) ${mark(r.peak.totalMb < TARGET.rssMb)} (target < ${TARGET.rssMb} MB)` +
      (r.seedSeconds !== undefined
        ? `; seeding ${r.seedSeconds} s ${mark(r.seedSeconds < TARGET.seedSeconds)} (target < ${TARGET.seedSeconds} s at 1M)`
        : ''),
  );
}

const signed = (us: number) => `${us >= 0 ? '+' : '−'}${Math.abs(us).toFixed(0)}`;

/** `+136 ✗, −40…+310`: the median difference judged against the target, then its interval. */
function versusSession(d: PairedDifference): string {
  return `${signed(d.median)} ${mark(d.median <= TARGET.tokenExtraUs)}, ${signed(d.low)}…${signed(d.high)}`;
}
