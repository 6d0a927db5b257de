import { numberLabel, type ChartData } from './chart-data';

/** The chart's values as a table: the text alternative for the chart, every value readable. */
export function ChartDataTable({ data, caption }: { data: ChartData; caption: string }) {
  return (
    <div
      className="doc-table chart-table"
      tabIndex={0}
      role="region"
      aria-label="Chart data"
      data-testid="agg-chart-table"
    >
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{data.kind === 'histogram' ? `${data.keyName} (range)` : data.keyName}</th>
            <th scope="col" className="num">
              {data.valueName}
            </th>
          </tr>
        </thead>
        <tbody>
          {data.data.map((d, i) => (
            <tr key={i}>
              <th scope="row">{d.label}</th>
              <td className="num">{numberLabel(d.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
