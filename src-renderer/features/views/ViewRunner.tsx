import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { schemaDef, type Schema } from '../../api/schemas';
import { runArguments, runView, viewKeys, viewRunUrl, viewVariables, type ViewRecord } from '../../api/views';
import { CopyButton } from '../../components/CopyButton';
import { FaultMessage } from '../../components/FaultMessage';
import { Pager } from '../../components/Pager';
import { allColumns, type Column } from '../../components/result-grid/columns';
import { useColumnWidths } from '../../components/result-grid/column-widths';
import { ResultGrid } from '../../components/result-grid/ResultGrid';
import { Field } from '../../components/Field';
import { useServiceOrigin } from '../../api/desktop-connections';
import { rememberArguments, startingArguments } from './run-memory';
import { variableHints, type VariableHint } from './variable-hints';

/** A view's rows come in the view's own order: its headers do not re-sort. */
const NOT_SORTABLE: ReadonlySet<string> = new Set();

interface ViewRunnerProps {
  orgClient: OrgClient;
  view: ViewRecord;
  schema: Schema | undefined;
}

/** The run form: variables (and limit/skip where the view lets callers set them) → the rows, paged. */
export function ViewRunner({ orgClient, view, schema }: ViewRunnerProps) {
  // Copied URLs name the service that answers (on the desktop, not the gateway's origin).
  const serviceOrigin = useServiceOrigin();
  // Column widths are kept per view, as Browse keeps them per collection.
  const [widths, setWidth] = useColumnWidths(orgClient.org, `view:${view.name}`);
  const variables = viewVariables(view);
  const hints = useMemo(
    () => variableHints(view.query ?? [], schema ? schemaDef(schema) : undefined),
    [view.query, schema],
  );
  // Each variable starts at what was run for this view earlier in this window, else its declared
  // default; the limit starts at the view's default.
  const [values, setValues] = useState<Record<string, string>>(() => startingArguments(orgClient.org, view));
  const descriptions = useMemo(() => declaredDescriptions(view), [view]);
  const [limit, setLimit] = useState(() =>
    view.limit?.defaultValue === undefined ? '' : String(view.limit.defaultValue),
  );
  // The arguments of the run shown; undefined until the first Run.
  const [ran, setRan] = useState<Record<string, string> | undefined>(undefined);
  const [skip, setSkip] = useState(0);
  const limitSettable = view.limit?.settable === true;
  const skipSettable = view.skip?.settable === true;

  // The view's own default limit goes without saying: the URL stays the one a caller would write.
  const limitArg: Record<string, string> =
    limitSettable && limit.trim() !== String(view.limit?.defaultValue ?? '') ? { limit } : {};
  const args = (at: number) =>
    runArguments({
      ...values,
      ...limitArg,
      ...(skipSettable && at > 0 ? { skip: String(at) } : {}),
    });
  const url = viewRunUrl(serviceOrigin, orgClient.org, view.name, ran ?? args(0));

  const run = useQuery({
    queryKey: viewKeys.run(orgClient.org, view.name, ran ?? {}),
    queryFn: ({ signal }) => runView(orgClient, view.name, ran!, signal),
    enabled: ran !== undefined,
    retry: false,
  });
  const rows = useMemo(() => run.data?.rows ?? [], [run.data]);
  const columns = useMemo(() => columnsFor(rows, schema), [rows, schema]);
  const pageSize = rows.length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    rememberArguments(orgClient.org, view.name, values);
    setSkip(0);
    setRan(args(0));
  };
  const goTo = (at: number) => {
    setSkip(at);
    setRan(args(at));
  };

  return (
    <section className="panel" aria-label="Run the view" data-testid="view-runner">
      <p className="panel__title">Run</p>
      <form onSubmit={submit}>
        <div className="view-run__form">
          {variables.map((name) => (
            <VariableField
              key={name}
              name={name}
              hintId={hintId(name)}
              hint={hints.get(name)}
              described={descriptions.has(name) || hints.has(name)}
              value={values[name] ?? ''}
              onChange={(value) => setValues((v) => ({ ...v, [name]: value }))}
            />
          ))}
          {limitSettable && (
            <Field
              label={
                <>
                  limit ({view.limit?.min ?? 1}–{view.limit?.max ?? 'max'})
                </>
              }
            >
              <input
                className="input input--mono"
                inputMode="numeric"
                data-testid="view-run-limit"
                value={limit}
                onChange={(e) => setLimit(e.target.value)}
              />
            </Field>
          )}
          <button type="submit" className="button button--primary" data-testid="view-run">
            Run
          </button>
        </div>
        <VariableHints variables={variables} hints={hints} descriptions={descriptions} />
      </form>
      <div className="view-url">
        <code data-testid="view-url">GET {url}</code>
        <CopyButton text={url} testId="view-url-copy" label="Copy URL" />
      </div>
      {run.isError && <FaultMessage fault={faultOf(run.error)} compact />}
      {run.isFetching && (
        <p className="status-line" role="status">
          <span className="spinner" aria-hidden="true" /> Running…
        </p>
      )}
      {run.data && (
        <>
          <div className="view-run__pager">
            <Pager
              testId="view-run"
              small
              label="Pages of the view"
              range={`${rows.length === 0 ? 'No rows' : `Rows ${skip + 1}–${skip + rows.length}`}${run.data.hasMore ? ' · more follow' : ''}`}
              canPrevious={skipSettable && skip > 0 && !run.isFetching}
              canNext={skipSettable && run.data.hasMore && !run.isFetching}
              onPrevious={() => goTo(Math.max(0, skip - Math.max(pageSize, 1)))}
              onNext={() => goTo(skip + pageSize)}
            />
          </div>
          {rows.length > 0 && (
            <div className="view-run__grid">
              <ResultGrid
                rows={rows}
                columns={columns}
                org={orgClient.org}
                stale={run.isFetching}
                onOpen={() => undefined}
                sortable={NOT_SORTABLE}
                sort={null}
                onSort={() => undefined}
                widths={widths}
                onResize={setWidth}
              />
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** The schema's columns the rows carry (views may limit paths), or plain text columns without one. */
function columnsFor(rows: { [key: string]: unknown }[], schema: Schema | undefined): Column[] {
  const keys = new Set(rows.flatMap((r) => Object.keys(r)));
  keys.delete('object');
  if (!schema) return [...keys].map((path) => ({ path, width: path === '_id' ? 220 : 180, kind: 'text' }));
  const known = allColumns(schemaDef(schema)).filter((c) => keys.has(c.path.split('.')[0]!));
  const rank = (c: Column) =>
    c.path === '_id' ? 0 : ['created', 'updated', 'updater', 'creator', 'owner'].includes(c.path) ? 2 : 1;
  return known.sort((a, b) => rank(a) - rank(b));
}

const hintId = (name: string) => `view-var-hint-${name}`;

/** One variable's box; what it wants is said below the row (`VariableHints`), and announced with it. */
function VariableField({
  name,
  hintId: describedBy,
  hint,
  described,
  value,
  onChange,
}: {
  name: string;
  hintId: string;
  hint: VariableHint | undefined;
  /** A note below says what it wants (the view's description, else the derived hint). */
  described: boolean;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={<code>{name}</code>} className="view-run__var" testId="view-var-field">
      {(id) => (
        <>
          <input
            id={id}
            className="input input--mono"
            data-testid="view-var"
            data-name={name}
            data-kind={hint?.kind}
            aria-describedby={described ? describedBy : undefined}
            spellCheck={false}
            list={hint?.options ? `${id}-options` : undefined}
            placeholder={hint?.example ? `e.g. ${hint.example}` : undefined}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
          {hint?.options && (
            <datalist id={`${id}-options`}>
              {hint.options.map((option) => (
                <option key={option} value={option} />
              ))}
            </datalist>
          )}
        </>
      )}
    </Field>
  );
}

/**
 * What each variable wants, in words: the view's description of it, else its shape derived from
 * where the view uses it (a description written by the view's author knows more than the shape).
 */
function VariableHints({
  variables,
  hints,
  descriptions,
}: {
  variables: string[];
  hints: Map<string, VariableHint>;
  descriptions: Map<string, string>;
}) {
  const shown = variables.filter((name) => descriptions.has(name) || hints.has(name));
  if (shown.length === 0) return null;
  return (
    <dl className="view-run__hints" data-testid="view-var-hints">
      {shown.map((name) => {
        const description = descriptions.get(name);
        return (
          <div key={name} data-testid="view-var-hint" data-name={name} data-source={description ? 'view' : 'derived'}>
            <dt>
              <code>{name}</code>
            </dt>
            <dd id={hintId(name)}>{description ?? hints.get(name)!.hint}</dd>
          </div>
        );
      })}
    </dl>
  );
}

function declaredDescriptions(view: ViewRecord): Map<string, string> {
  return new Map((view.variables ?? []).flatMap((v) => (v.description ? [[v.name, v.description] as const] : [])));
}
