/** The bench's report: one table per dataset of ratios to the floors, p50 latencies, memory and load time. */
import { MAX_ROUND_SECONDS, MIN_ROUND_REQUESTS } from './round-length.js';
import type { MeasureSettings } from './measure.js';
import type { PairedDifference } from './paired-difference.js';

/** Targets: the throughput ratio ≥ 0.67 of the floor, walk time ≤ 1.5×, token p50 ≤ session p50 + 20 µs. */
export const TARGET = { throughput: 2 / 3, walk: 1.5, tokenExtraUs: 20, rssMb: 300, seedSeconds: 60 };

export interface SizeReport {
  /** The dataset, as the report's heading names it. */
  title: string;
  size: number;
  loadSeconds?: number;
  loadNote?: string;
  loadKind?: 'seeded' | 'imported';
  walked: number;
  rows: {
    label: string;
    kind: 'throughput' | 'walk';
    floor: string;
    cells: Map<string, { ratio: number; p50Us?: number; vsSession?: PairedDifference | undefined }>;
    floorP50Us?: number;
    /** Seconds each throughput round lasted, where longer than the settings' (round-length.ts). */
    roundSeconds?: number;
  }[];
  peak: { totalMb: number; anonMb: number };
  /** The authenticating floors (`floor-signed-v1`…) and the way each is the floor of. */
  floors: { name: string; of: string }[];
}

const mark = (ok: boolean) => (ok ? '✓' : '✗');

export function print(r: SizeReport, ways: string[], settings: MeasureSettings): void {
  const { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS } = settings;
  const floors = r.floors.map((f) => f.name);
  const floorOf = new Map(r.floors.map((f) => [f.of, f.name]));
  const names = [...floors, ...ways];
  const heading = (n: string) =>
    floorOf.has(n) ? `${n} (÷ ${floorOf.get(n)})` : floors.includes(n) ? `${n} (÷ floor)` : n;
  console.log(`\n### ${r.title}\n`);
  console.log(
    `Throughput ÷ its floor (target ≥ ${TARGET.throughput.toFixed(2)}); Q2: walk time ÷ its floor's (target ≤ ${TARGET.walk}×). ` +
      `Sessions and tokens against the floor, which authenticates nothing; signed requests against the floor that ` +
      `verifies the HMAC and records the nonce in SQLite (a file of its own) before answering (docs/SPEED.md), itself shown ÷ the floor. ` +
      `${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s; each ratio the median of per-round ratios.\n`,
  );
  console.log(`| query | floor | ${names.map(heading).join(' | ')} |`);
  console.log(`|---|---|${names.map(() => '---|').join('')}`);
  for (const row of r.rows) {
    const cells = names.map((n) => {
      const c = row.cells.get(n)!;
      const text = row.kind === 'walk' ? `${c.ratio.toFixed(2)}×` : c.ratio.toFixed(2);
      if (floors.includes(n)) return text; // a floor is shown, not judged
      return `${text} ${mark(row.kind === 'walk' ? c.ratio <= TARGET.walk : c.ratio >= TARGET.throughput)}`;
    });
    console.log(`| ${row.label} | ${row.floor} | ${cells.join(' | ')} |`);
  }
  const lengthened = r.rows.filter((row) => row.roundSeconds !== undefined && row.roundSeconds > DURATION);
  if (lengthened.length > 0) {
    console.log(
      `\nRounds lengthened so the slowest side completes at least ${MIN_ROUND_REQUESTS} requests in each (at most ${MAX_ROUND_SECONDS} s): ` +
        `${lengthened.map((row) => `${row.label.split(' ')[0]} ${row.roundSeconds} s`).join(', ')}.`,
    );
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
  const seedTarget = r.loadKind === 'seeded' && r.size >= 1e6;
  console.log(
    `\nService RSS peak ${r.peak.totalMb.toFixed(0)} MB (anonymous ${r.peak.anonMb.toFixed(0)} MB) ${mark(r.peak.totalMb < TARGET.rssMb)} (target < ${TARGET.rssMb} MB)` +
      (r.loadSeconds !== undefined
        ? `; ${r.loadNote ?? 'load'}: ${r.loadSeconds} s` +
          (seedTarget ? ` ${mark(r.loadSeconds < TARGET.seedSeconds)} (target < ${TARGET.seedSeconds} s at 1M)` : '')
        : ''),
  );
}

const signed = (us: number) => `${us >= 0 ? '+' : '−'}${Math.abs(us).toFixed(0)}`;

/** `+136 ✗, −40…+310`: the median difference judged against the target, then its interval. */
function versusSession(d: PairedDifference): string {
  return `${signed(d.median)} ${mark(d.median <= TARGET.tokenExtraUs)}, ${signed(d.low)}…${signed(d.high)}`;
}
