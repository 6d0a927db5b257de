import { describe, expect, it } from 'vitest';
import { chartCsv, chartData, numberLabel } from './chart-data';
import { chartShape } from './chart-shape';

describe('chart data', () => {
  it('bars keep the pipeline order and leave out documents without a value', () => {
    const docs = [
      { _id: 'en_US', count: 12 },
      { _id: 'de_DE', count: null },
      { _id: null, count: 3 },
    ];
    const data = chartData(docs, chartShape(docs)!, 'bar', 'count');
    expect(data.data).toEqual([
      { label: 'en_US', value: 12 },
      { label: '(none)', value: 3 },
    ]);
    expect(data.skipped).toBe(1);
  });

  it('a line is ordered by time and labelled by the period', () => {
    const docs = [
      { _id: '2024-03', count: 3 },
      { _id: '2024-01', count: 1 },
      { _id: { year: 2024, month: 2 }, count: 2 },
    ];
    // Mixed forms of month still all read as times.
    const shape = chartShape(docs)!;
    expect(shape.keyKind).toBe('time');
    const data = chartData(docs, shape, 'line', 'count');
    expect(data.data.map((d) => [d.label, d.value])).toEqual([
      ['2024-01', 1],
      ['2024-02', 2],
      ['2024-03', 3],
    ]);
    expect(data.data[0]!.x).toBe(Date.UTC(2024, 0, 1));
  });

  it('a histogram bins the keys and adds up the values of each bin', () => {
    const docs = Array.from({ length: 50 }, (_, i) => ({ _id: i, count: 2 }));
    const data = chartData(docs, chartShape(docs)!, 'histogram', 'count');
    expect(data.data.reduce((sum, d) => sum + d.value, 0)).toBe(100);
    expect(data.data.length).toBeGreaterThan(3);
    for (const d of data.data) expect(d.x1!).toBeGreaterThan(d.x!);
    expect(data.data[0]!.label).toMatch(/^0 – \d+$/);
  });

  it('writes CSV of what the chart shows', () => {
    const docs = [
      { _id: 'a, b', count: 2 },
      { _id: 'c', count: 1 },
    ];
    const csv = chartCsv(chartData(docs, chartShape(docs)!, 'bar', 'count'));
    expect(csv).toBe('_id,count\r\n"a, b",2\r\nc,1\r\n');
    expect(numberLabel(2.123456789)).toBe('2.12346');
  });
});
