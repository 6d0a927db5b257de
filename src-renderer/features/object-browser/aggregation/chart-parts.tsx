/** Pieces every chart shares: the frame's margins, value gridlines and the tick labels. */
import type { ReactNode, Ref } from 'react';

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface ChartFrameProps {
  width: number;
  height: number;
  titleId: string;
  title: string;
  description: string;
  children: ReactNode;
  svgRef: Ref<SVGSVGElement>;
}

/**
 * The SVG itself, an image named by its title with a description of what it shows; the data
 * table beside it (ChartDataTable) is the text alternative for every value.
 */
export function ChartFrame({ width, height, titleId, title, description, children, svgRef }: ChartFrameProps) {
  return (
    <svg
      ref={svgRef}
      className="chart"
      role="img"
      aria-labelledby={`${titleId}-title ${titleId}-desc`}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      data-testid="agg-chart-svg"
    >
      <title id={`${titleId}-title`}>{title}</title>
      <desc id={`${titleId}-desc`}>{description}</desc>
      {children}
    </svg>
  );
}

/** Vertical gridlines with value labels under the plot (horizontal bar charts). */
export function ValueTicksX({
  ticks,
  x,
  top,
  bottom,
  format,
}: {
  ticks: number[];
  x: (v: number) => number;
  top: number;
  bottom: number;
  format: (v: number) => string;
}) {
  return (
    <g aria-hidden="true">
      {ticks.map((tick) => (
        <g key={tick}>
          <line className="chart__grid" x1={x(tick)} x2={x(tick)} y1={top} y2={bottom} />
          <text className="chart__tick" x={x(tick)} y={bottom + 14} textAnchor="middle">
            {format(tick)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** Horizontal gridlines with value labels at the left (line charts and histograms). */
export function ValueTicksY({
  ticks,
  y,
  left,
  right,
  format,
}: {
  ticks: number[];
  y: (v: number) => number;
  left: number;
  right: number;
  format: (v: number) => string;
}) {
  return (
    <g aria-hidden="true">
      {ticks.map((tick) => (
        <g key={tick}>
          <line className="chart__grid" x1={left} x2={right} y1={y(tick)} y2={y(tick)} />
          <text className="chart__tick" x={left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
            {format(tick)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** Labels along the bottom axis at the given positions. */
export function AxisLabelsX({ labels, y }: { labels: { x: number; text: string }[]; y: number }) {
  return (
    <g aria-hidden="true">
      {labels.map((label, i) => (
        <text key={i} className="chart__tick" x={label.x} y={y} textAnchor="middle">
          {label.text}
        </text>
      ))}
    </g>
  );
}
