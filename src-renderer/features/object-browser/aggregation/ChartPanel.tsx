import { useId, useMemo, useRef, useState } from 'react';
import type { PipelineDocument } from '../../../api/aggregations';
import type { ChartKind } from './agg-route';
import { chartCsv, chartData, numberLabel, type ChartData } from './chart-data';
import { chartFileName, downloadCsv, downloadPng, downloadSvg } from './chart-export';
import type { ChartShape } from './chart-shape';
import { ChartDataTable } from './ChartDataTable';
import { BarChart, HistogramChart, LineChart, MAX_BARS } from './charts';
import { useWidth } from './use-width';

const KIND_LABELS: Record<ChartKind, string> = { bar: 'Bar', line: 'Line', histogram: 'Histogram' };

interface ChartPanelProps {
  documents: PipelineDocument[];
  shape: ChartShape;
  /** The chart picked by hand (the URL's), if it fits the shape. */
  chosen: ChartKind | undefined;
  onKind: (kind: ChartKind) => void;
  /** The collection, for file names. */
  name: string;
  /** What the key stands for (`locale`), when the pipeline says. */
  keyName: string | undefined;
}

/** The result as a chart: the kind its shape suggests (switchable), its data table, its export. */
export function ChartPanel({ documents, shape, chosen, onKind, name, keyName }: ChartPanelProps) {
  const kind = chosen && shape.kinds.includes(chosen) ? chosen : (shape.kinds[0] ?? 'bar');
  const [picked, setPicked] = useState(shape.valueFields[0] ?? '');
  const field = shape.valueFields.includes(picked) ? picked : (shape.valueFields[0] ?? '');
  const data = useMemo(() => chartData(documents, shape, kind, field), [documents, shape, kind, field]);
  const [tableOpen, setTableOpen] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box, 800);
  const titleId = useId();
  const over = keyName ?? shape.keyPath;
  const title = `${field} per ${kind === 'line' ? `${over} (over time)` : kind === 'histogram' ? `${over} (range)` : over}`;

  const save = async (format: 'png' | 'svg' | 'csv') => {
    const file = chartFileName(name, kind, format, new Date());
    try {
      if (format === 'csv') downloadCsv(chartCsv({ ...data, keyName: over }), file);
      else if (svg.current && format === 'svg') downloadSvg(svg.current, file);
      else if (svg.current) await downloadPng(svg.current, file);
      setMessage(`Saved ${file}.`);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    }
  };

  const notes = chartNotes(data, kind, field, shape.keyPath);
  const Chart = kind === 'line' ? LineChart : kind === 'histogram' ? HistogramChart : BarChart;
  return (
    <div className="chart-panel" data-testid="agg-chart" data-kind={kind}>
      <div className="chart-panel__controls">
        <div className="segmented" role="group" aria-label="Chart">
          {shape.kinds.map((k) => (
            <button
              key={k}
              type="button"
              className={k === kind ? 'segmented__item segmented__item--on' : 'segmented__item'}
              aria-pressed={k === kind}
              data-testid={`agg-chart-kind-${k}`}
              onClick={() => onKind(k)}
            >
              {KIND_LABELS[k]}
            </button>
          ))}
        </div>
        {shape.valueFields.length > 1 && (
          <label className="inline-select">
            Value
            <select
              className="select"
              value={field}
              data-testid="agg-chart-value"
              onChange={(e) => setPicked(e.target.value)}
            >
              {shape.valueFields.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </label>
        )}
        <button
          type="button"
          className="button button--secondary button--small"
          aria-expanded={tableOpen}
          data-testid="agg-chart-table-toggle"
          onClick={() => setTableOpen(!tableOpen)}
        >
          {tableOpen ? 'Hide data table' : 'Data table'}
        </button>
        <span className="chart-panel__export" role="group" aria-label="Export the chart">
          {(['png', 'svg', 'csv'] as const).map((format) => (
            <button
              key={format}
              type="button"
              className="button button--ghost button--small"
              data-testid={`agg-chart-export-${format}`}
              onClick={() => void save(format)}
            >
              {format.toUpperCase()}
            </button>
          ))}
        </span>
        {message && (
          <span className="qb-hint" role="status">
            {message}
          </span>
        )}
      </div>
      <figure className="chart-panel__figure">
        <div ref={box} className="chart-panel__plot">
          <Chart data={data} width={width} titleId={titleId} title={title} description={describe(data)} svgRef={svg} />
        </div>
        {notes.length > 0 && (
          <figcaption className="qb-hint" data-testid="agg-chart-notes">
            {notes.join(' ')}
          </figcaption>
        )}
      </figure>
      {tableOpen && <ChartDataTable data={{ ...data, keyName: over }} caption={title} />}
    </div>
  );
}

/** What the chart leaves out: bars past the first hundred, documents without a value or key. */
function chartNotes(data: ChartData, kind: ChartKind, field: string, keyPath: string): string[] {
  const notes: string[] = [];
  if (kind === 'bar' && data.data.length > MAX_BARS) {
    notes.push(
      `The first ${MAX_BARS} of ${data.data.length} keys are drawn; the data table and the CSV have them all.`,
    );
  }
  if (data.skipped > 0) {
    const what = kind === 'bar' ? '' : ` or no ${kind === 'line' ? 'time' : 'number'} for ${keyPath}`;
    notes.push(
      `${data.skipped} ${data.skipped === 1 ? 'document is' : 'documents are'} not drawn: no ${field}${what}.`,
    );
  }
  return notes;
}

/** A sentence for screen readers: how many values, the range, the largest. */
function describe(data: ChartData): string {
  if (data.data.length === 0) return 'No values to draw.';
  const top = data.data.reduce((a, b) => (b.value > a.value ? b : a));
  const unit = data.kind === 'histogram' ? 'ranges' : data.kind === 'line' ? 'points in time' : 'bars';
  const first = data.data[0]?.label ?? '';
  const last = data.data[data.data.length - 1]?.label ?? '';
  return `${data.data.length} ${unit}, from ${first} to ${last}; the largest ${data.valueName} is ${numberLabel(top.value)} at ${top.label}. The data table lists every value.`;
}
