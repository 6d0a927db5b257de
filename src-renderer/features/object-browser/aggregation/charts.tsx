/**
 * The three charts, drawn as SVG by React with d3-scale's scales and ticks: horizontal bars per
 * key (labels stay readable however many), a line over time (UTC), and a histogram. SVG rather
 * than a canvas: it exports as SVG as it is, reads out as an image with a description, and
 * takes the console's colours from CSS in both themes.
 */
import { scaleBand, scaleLinear, scaleUtc } from 'd3-scale';
import type { Ref } from 'react';
import { numberLabel, type ChartData } from './chart-data';
import { AxisLabelsX, ChartFrame, ValueTicksX, ValueTicksY } from './chart-parts';

export interface ChartProps {
  data: ChartData;
  width: number;
  titleId: string;
  title: string;
  description: string;
  svgRef: Ref<SVGSVGElement>;
}

const BAR_ROW = 24;
/** Bars drawn at most (in the pipeline's order); the data table and the CSV have every key. */
export const MAX_BARS = 100;
const PLOT_HEIGHT = 300;
const CHAR_WIDTH = 7;

const maxValue = (data: ChartData) => Math.max(0, ...data.data.map((d) => d.value));

/** One bar per key, longest label first in mind: the label column fits the labels (up to a third). */
export function BarChart({ data: all, width, ...frame }: ChartProps) {
  const data = { ...all, data: all.data.slice(0, MAX_BARS) };
  const longest = Math.max(4, ...data.data.map((d) => d.label.length));
  const left = Math.min(Math.max(60, longest * CHAR_WIDTH + 16), Math.floor(width / 3));
  const margin = { top: 8, right: 64, bottom: 28, left };
  const height = margin.top + data.data.length * BAR_ROW + margin.bottom;
  const y = scaleBand<number>()
    .domain(data.data.map((_, i) => i))
    .range([margin.top, height - margin.bottom])
    .padding(0.2);
  const x = scaleLinear()
    .domain([0, maxValue(data) || 1])
    .nice()
    .range([margin.left, width - margin.right]);
  const maxChars = Math.floor((left - 12) / CHAR_WIDTH);
  return (
    <ChartFrame width={width} height={height} {...frame}>
      <ValueTicksX
        ticks={x.ticks(Math.max(2, Math.floor((width - left) / 90)))}
        x={x}
        top={margin.top}
        bottom={height - margin.bottom}
        format={x.tickFormat()}
      />
      {data.data.map((d, i) => (
        <g key={i} data-testid="agg-chart-bar">
          <title>{`${d.label}: ${numberLabel(d.value)}`}</title>
          <text className="chart__label" x={left - 8} y={(y(i) ?? 0) + y.bandwidth() / 2} dy="0.32em" textAnchor="end">
            {d.label.length > maxChars ? `${d.label.slice(0, Math.max(1, maxChars - 1))}…` : d.label}
          </text>
          <rect
            className="chart__mark"
            x={x(0)}
            y={y(i)}
            width={Math.max(0, x(d.value) - x(0))}
            height={y.bandwidth()}
          />
          <text className="chart__value" x={x(d.value) + 4} y={(y(i) ?? 0) + y.bandwidth() / 2} dy="0.32em">
            {numberLabel(d.value)}
          </text>
        </g>
      ))}
    </ChartFrame>
  );
}

const DOT_INSET = 12;

/** A line through the values in time order, with a dot on each. */
export function LineChart({ data, width, ...frame }: ChartProps) {
  const margin = { top: 12, right: 24, bottom: 28, left: 56 };
  const height = PLOT_HEIGHT;
  const times = data.data.map((d) => d.x ?? 0);
  const first = Math.min(...times);
  const last = Math.max(...times);
  // One point still needs a span of time around it.
  const span = last > first ? [first, last] : [first - 15 * 86_400_000, first + 15 * 86_400_000];
  // The first and last dots sit a little inside the frame, clear of the value labels at its left.
  const x = scaleUtc()
    .domain(span.map((t) => new Date(t)))
    .range([margin.left + DOT_INSET, width - margin.right - DOT_INSET]);
  const y = scaleLinear()
    .domain([0, maxValue(data) || 1])
    .nice()
    .range([height - margin.bottom, margin.top]);
  const ticks = x.ticks(Math.max(2, Math.floor((width - margin.left - margin.right) / 90)));
  const format = x.tickFormat();
  const points = data.data.map((d) => ({ d, px: x(new Date(d.x ?? 0)), py: y(d.value) }));
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.px.toFixed(1)},${p.py.toFixed(1)}`).join('');
  return (
    <ChartFrame width={width} height={height} {...frame}>
      <ValueTicksY ticks={y.ticks(5)} y={y} left={margin.left} right={width - margin.right} format={y.tickFormat(5)} />
      <AxisLabelsX labels={ticks.map((t) => ({ x: x(t), text: format(t) }))} y={height - margin.bottom + 16} />
      <path className="chart__line" d={path} />
      {points.map(({ d, px, py }, i) => (
        <circle key={i} className="chart__dot" cx={px} cy={py} r={3.5} data-testid="agg-chart-point">
          <title>{`${d.label}: ${numberLabel(d.value)}`}</title>
        </circle>
      ))}
    </ChartFrame>
  );
}

/** Adjacent bars over the bins of the numeric keys, each as tall as its values add up to. */
export function HistogramChart({ data, width, ...frame }: ChartProps) {
  const margin = { top: 12, right: 24, bottom: 28, left: 56 };
  const height = PLOT_HEIGHT;
  const low = data.data[0]?.x ?? 0;
  const high = data.data[data.data.length - 1]?.x1 ?? low + 1;
  const x = scaleLinear()
    .domain([low, high > low ? high : low + 1])
    .range([margin.left, width - margin.right]);
  const y = scaleLinear()
    .domain([0, maxValue(data) || 1])
    .nice()
    .range([height - margin.bottom, margin.top]);
  const edges = data.data.length <= 12 ? [low, ...data.data.map((d) => d.x1 ?? 0)] : x.ticks(8);
  return (
    <ChartFrame width={width} height={height} {...frame}>
      <ValueTicksY ticks={y.ticks(5)} y={y} left={margin.left} right={width - margin.right} format={y.tickFormat(5)} />
      <AxisLabelsX labels={edges.map((e) => ({ x: x(e), text: numberLabel(e) }))} y={height - margin.bottom + 16} />
      {data.data.map((d, i) => (
        <rect
          key={i}
          className="chart__mark"
          data-testid="agg-chart-bin"
          x={x(d.x ?? 0) + 1}
          y={y(d.value)}
          width={Math.max(0, x(d.x1 ?? 0) - x(d.x ?? 0) - 2)}
          height={Math.max(0, y(0) - y(d.value))}
        >
          <title>{`${d.label}: ${numberLabel(d.value)}`}</title>
        </rect>
      ))}
    </ChartFrame>
  );
}
