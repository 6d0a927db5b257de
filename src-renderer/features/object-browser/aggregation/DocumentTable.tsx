import { useMemo } from 'react';
import type { PipelineDocument } from '../../../api/aggregations';
import { valueAt } from '../../../components/result-grid/encode';
import { cellText, documentColumns } from './document-table';

/** The pipeline's output as a plain table: one row per document, a column per leaf path. */
export function DocumentTable({ documents }: { documents: PipelineDocument[] }) {
  const columns = useMemo(() => documentColumns(documents), [documents]);
  return (
    <div className="doc-table" tabIndex={0} role="region" aria-label="Pipeline output" data-testid="agg-table">
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {documents.map((doc, row) => (
            <tr key={row} data-testid="agg-table-row">
              {columns.map((column) => {
                const text = cellText(valueAt(doc, column));
                return (
                  <td key={column} title={text.length > 40 ? text : undefined}>
                    {text}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
