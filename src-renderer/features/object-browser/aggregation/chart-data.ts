/**
 * The numbers a chart draws, from the result documents and the chosen chart (pure, so
 * unit-tested): bars keep the pipeline's order, a line is ordered by time, a histogram bins the
 * numeric keys (d3-array's `bin`, Sturges' rule) and adds up each bin's values. The same rows
 * feed the chart's data table and its CSV, so all three always agree.
 */
import { bin } from 'd3-array';
import type { PipelineDocument } from '../../../api/aggregations';
import { csvCell } from '../../../components/result-grid/encode';
import type { ChartKind } from './agg-route';
import { keyLabel, timeOfKey, type ChartShape } from './chart-shape';

export interface ChartDatum {
  label: string;
  value: number;
  /** Line: the key's time (ms, UTC). Histogram: the bin's lower edge. */
  x?: number;
  /** Histogram: the bin's upper edge (exclusive, the last one inclusive). */
  x1?: number;
}

export interface ChartData {
  kind: ChartKind;
  keyName: string;
  valueName: string;
  data: ChartDatum[];
  /** Documents left out: no value, or (line, histogram) a key that is no time or number. */
  skipped: number;
}

type Granularity = 'year' | 'month' | 'day' | 'time';

function granularity(times: readonly number[]): Granularity {
  const dates = times.map((t) => new Date(t));
  if (dates.some((d) => d.getUTCHours() || d.getUTCMinutes() || d.getUTCSeconds() || d.getUTCMilliseconds())) {
    return 'time';
  }
  if (dates.some((d) => d.getUTCDate() !== 1)) return 'day';
  if (dates.some((d) => d.getUTCMonth() !== 0)) return 'month';
  return 'year';
}

/** A time as the period it stands for: `2024`, `2024-03`, `2024-03-01` or the full ISO time. */
export function timeLabel(ms: number, unit: Granularity): string {
  const iso = new Date(ms).toISOString();
  if (unit === 'year') return iso.slice(0, 4);
  if (unit === 'month') return iso.slice(0, 7);
  if (unit === 'day') return iso.slice(0, 10);
  return iso;
}

/** Whole numbers print plainly; others with at most four significant decimals. */
export function numberLabel(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(6)));
}

export function chartData(
  docs: readonly PipelineDocument[],
  shape: ChartShape,
  kind: ChartKind,
  valueField: string,
): ChartData {
  const rows = docs
    .map((doc) => ({ key: doc[shape.keyPath], value: doc[valueField] }))
    .filter((row): row is { key: unknown; value: number } => typeof row.value === 'number');
  const base = { kind, keyName: shape.keyPath, valueName: valueField };
  const missingValues = docs.length - rows.length;

  if (kind === 'line' || (kind === 'bar' && shape.keyKind === 'time')) {
    const timed = rows
      .map((row) => ({ time: timeOfKey(row.key), value: row.value }))
      .filter((row): row is { time: number; value: number } => row.time !== undefined);
    const unit = granularity(timed.map((row) => row.time));
    if (kind === 'line') timed.sort((a, b) => a.time - b.time);
    const data = timed.map((row) => ({ label: timeLabel(row.time, unit), value: row.value, x: row.time }));
    return { ...base, data, skipped: missingValues + rows.length - timed.length };
  }
  if (kind === 'histogram') {
    const numeric = rows.filter((row): row is { key: number; value: number } => typeof row.key === 'number');
    const bins = bin<{ key: number; value: number }, number>().value((row) => row.key)(numeric);
    const data = bins.map((b) => ({
      label: `${numberLabel(b.x0 ?? 0)} – ${numberLabel(b.x1 ?? 0)}`,
      value: b.reduce((sum, row) => sum + row.value, 0),
      x: b.x0 ?? 0,
      x1: b.x1 ?? 0,
    }));
    return { ...base, data, skipped: missingValues + rows.length - numeric.length };
  }
  return { ...base, data: rows.map((row) => ({ label: keyLabel(row.key), value: row.value })), skipped: missingValues };
}

/** The chart's rows as CSV (RFC 4180): the key (or bin, or period) and the value. */
export function chartCsv(data: ChartData): string {
  const keyHeader = data.kind === 'histogram' ? `${data.keyName} (range)` : data.keyName;
  const lines = [[keyHeader, data.valueName], ...data.data.map((d) => [d.label, d.value])];
  return `${lines.map((line) => line.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
