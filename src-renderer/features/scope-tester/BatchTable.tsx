import {
  ROW_OPERATIONS,
  emptyRow,
  typeChoices,
  summarizeBatch,
  type RowOperation,
  type RowResult,
  type TestRow,
  type Verdict,
} from './batch';
import type { ServiceAnswer } from './service-check';
import { FieldError } from '../../components/Field';

interface BatchTableProps {
  rows: TestRow[];
  /** The org's object type names (undefined while they load). */
  typeNames: readonly string[] | undefined;
  results: RowResult[];
  answers: ServiceAnswer[] | undefined;
  onRows: (rows: TestRow[]) => void;
}

/** Editable request rows with the tester's verdict, the deciding chain, and the service's answer. */
export function BatchTable({ rows, typeNames, results, answers, onRows }: BatchTableProps) {
  const update = (index: number, patch: Partial<TestRow>) =>
    onRows(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const summary = summarizeBatch(results);

  return (
    <>
      <div className="grid-frame">
        <table className="grid batch" data-testid="tester-rows">
          {/* Fixed columns just fit their controls and verdict chips; instance id and property path share
              the rest, so the whole row fits the panel at 1024 px (table-layout: fixed, access.css). */}
          <colgroup>
            <col style={{ width: 80 }} />
            <col style={{ width: 144 }} />
            <col />
            <col />
            <col style={{ width: 80 }} />
            <col style={{ width: 84 }} />
            <col style={{ width: 100 }} />
            <col style={{ width: 36 }} />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">operation</th>
              <th scope="col">object type</th>
              <th scope="col">instance id</th>
              <th scope="col">property path</th>
              <th scope="col">expected</th>
              <th scope="col">tester</th>
              <th scope="col">service</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          {rows.length === 0 && (
            <tbody>
              <tr data-testid="tester-rows-empty">
                <td colSpan={8} className="grid__status">
                  No requests yet. Add one to see what the chains allow.
                </td>
              </tr>
            </tbody>
          )}
          {rows.map((row, index) => {
            const result = results[index];
            const answer = answers?.[index];
            return (
              <tbody key={index} className="batch__request" data-testid="tester-row">
                <tr>
                  <td>
                    <select
                      className="select"
                      aria-label={`Row ${index + 1} operation`}
                      data-testid="row-operation"
                      value={row.operation}
                      onChange={(e) => update(index, { operation: e.target.value as RowOperation })}
                    >
                      {ROW_OPERATIONS.map((operation) => (
                        <option key={operation}>{operation}</option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <select
                      className="select"
                      aria-label={`Row ${index + 1} object type`}
                      data-testid="row-type"
                      title={row.objectType}
                      value={row.objectType}
                      disabled={typeNames === undefined && row.operation !== 'execute'}
                      onChange={(e) => update(index, { objectType: e.target.value })}
                    >
                      {row.objectType === '' && <option value="">—</option>}
                      {typeChoices(row.operation, row.objectType, typeNames ?? []).map((name) => (
                        <option key={name} value={name}>
                          {name}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <input
                      className="input input--mono"
                      aria-label={`Row ${index + 1} instance id`}
                      data-testid="row-instance"
                      placeholder={row.operation === 'execute' ? '(any; or an id or code)' : '(list)'}
                      value={row.instanceId}
                      onChange={(e) => update(index, { instanceId: e.target.value })}
                    />
                  </td>
                  <td>
                    <input
                      className="input input--mono"
                      aria-label={`Row ${index + 1} property path`}
                      data-testid="row-path"
                      placeholder="(all)"
                      value={row.propertyPath}
                      onChange={(e) => update(index, { propertyPath: e.target.value })}
                    />
                  </td>
                  <td>
                    <select
                      className="select"
                      aria-label={`Row ${index + 1} expected verdict`}
                      data-testid="row-expected"
                      value={row.expected ?? ''}
                      onChange={(e) => {
                        const value = e.target.value;
                        const next: TestRow = { ...row };
                        if (value === 'allowed' || value === 'denied') next.expected = value;
                        else delete next.expected;
                        onRows(rows.map((r, i) => (i === index ? next : r)));
                      }}
                    >
                      <option value="">—</option>
                      <option value="allowed">allowed</option>
                      <option value="denied">denied</option>
                    </select>
                  </td>
                  <td>
                    {result?.verdict ? (
                      <span data-testid="row-verdict" data-verdict={result.verdict}>
                        <VerdictChip verdict={result.verdict} />
                      </span>
                    ) : (
                      <span data-testid="row-verdict" data-verdict="invalid">
                        <span className="verdict verdict--other">invalid</span>
                      </span>
                    )}
                    {result?.outcome && (
                      <span
                        className={`outcome--${result.outcome}`}
                        data-testid="row-outcome"
                        data-outcome={result.outcome}
                      >
                        {' '}
                        {result.outcome === 'pass' ? '✓ pass' : '✗ fail'}
                      </span>
                    )}
                  </td>
                  <td>
                    <ServiceVerdict answer={answer} tester={result?.verdict} />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="icon-button icon-button--small"
                      aria-label={`Remove row ${index + 1}`}
                      data-testid="row-remove"
                      onClick={() => onRows(rows.filter((_, i) => i !== index))}
                    >
                      ×
                    </button>
                  </td>
                </tr>
                <tr className="batch__detail">
                  <td colSpan={8}>
                    <div className="batch__why">
                      {result?.problem ? (
                        <FieldError as="span">{result.problem}</FieldError>
                      ) : (
                        <span>
                          {result?.decision?.matchedChain && (
                            <>
                              <code data-testid="row-chain">{result.decision.matchedChain}</code>{' '}
                            </>
                          )}
                          {result?.decision?.explanation}
                        </span>
                      )}
                      {answer && <ServiceDetail answer={answer} />}
                    </div>
                  </td>
                </tr>
              </tbody>
            );
          })}
        </table>
      </div>
      <div className="access-toolbar">
        <button
          type="button"
          className="button button--secondary"
          data-testid="tester-add-row"
          disabled={rows.length >= 200}
          onClick={() => onRows([...rows, nextRow(rows.at(-1))])}
        >
          Add request
        </button>
        <span className="note" data-testid="tester-summary" role="status">
          {summary.allowed} allowed · {summary.denied} denied
          {summary.invalid > 0 && ` · ${summary.invalid} invalid`}
          {summary.passed + summary.failed > 0 && ` · ${summary.passed} pass, ${summary.failed} fail vs expected`}
        </span>
      </div>
    </>
  );
}

/** A new row starts as a copy of the last one (same type, usually), without its expectation. */
function nextRow(last: TestRow | undefined): TestRow {
  if (!last) return emptyRow();
  const { expected: _dropped, ...rest } = last;
  return rest;
}

function VerdictChip({ verdict }: { verdict: Verdict }) {
  return <span className={`verdict verdict--${verdict}`}>{verdict}</span>;
}

function ServiceVerdict({ answer, tester }: { answer: ServiceAnswer | undefined; tester: Verdict | undefined }) {
  if (!answer) return <span className="note">—</span>;
  const comparable = (answer.verdict === 'allowed' || answer.verdict === 'denied') && tester !== undefined;
  return (
    <span data-testid="row-service" data-verdict={answer.verdict}>
      {answer.verdict === 'allowed' || answer.verdict === 'denied' ? (
        <VerdictChip verdict={answer.verdict} />
      ) : (
        <span className={`verdict verdict--${answer.verdict === 'skipped' ? 'none' : 'other'}`}>{answer.verdict}</span>
      )}
      {comparable && (
        <span
          className={answer.verdict === tester ? 'outcome--pass' : 'outcome--fail'}
          data-testid="row-service-agrees"
          data-agrees={answer.verdict === tester}
          title={answer.verdict === tester ? 'The service agrees with the tester' : 'The service disagrees'}
        >
          {answer.verdict === tester ? ' =' : ' ≠'}
        </span>
      )}
    </span>
  );
}

function ServiceDetail({ answer }: { answer: ServiceAnswer }) {
  return (
    <span className="batch__service">
      service: {answer.request && <code>{answer.request}</code>}{' '}
      {answer.status !== undefined && <code>HTTP {answer.status}</code>}{' '}
      {answer.errCode && <code>{answer.errCode}</code>} {answer.detail}
    </span>
  );
}
