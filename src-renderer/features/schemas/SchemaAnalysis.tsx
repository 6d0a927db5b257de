import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { queryKeys } from '../../api/query-keys';
import { fetchListPage, type ObjectRecord } from '../../api/records';
import { countQuery } from '../../api/record-count';
import type { Schema } from '../../api/schemas';
import { FaultMessage } from '../../components/FaultMessage';
import { analyseSample, type PathAnalysis } from './analyse-sample';
import { samplePlan, SAMPLE_RUNS } from './sample-plan';

const SAMPLE_SIZES = [100, 500, 1000];
type SampleKind = 'random' | 'newest';

/**
 * Like Compass's Schema tab: sample the collection — N records at random places, or the newest N —
 * with ordinary list requests (so the same access rules apply) and show what the data actually
 * holds, path by path.
 */
export function SchemaAnalysis({ orgClient, schema }: { orgClient: OrgClient; schema: Schema }) {
  const queryClient = useQueryClient();
  const [size, setSize] = useState(100);
  const [kind, setKind] = useState<SampleKind>('random');
  const [asked, setAsked] = useState(false);
  const sample = useQuery({
    queryKey: [...queryKeys.collection(orgClient.org, schema.collection), 'schema-sample', kind, size],
    queryFn: async ({ signal }): Promise<{ items: ObjectRecord[] }> => {
      if (kind === 'newest') return fetchListPage(orgClient, schema.collection, { limit: size }, signal);
      const total = await queryClient.fetchQuery(countQuery(orgClient, schema.collection, undefined));
      const pages = await Promise.all(
        samplePlan(total, size, Math.random).map((run) =>
          fetchListPage(orgClient, schema.collection, { ...run, sort: { _id: 1 } }, signal),
        ),
      );
      return { items: pages.flatMap((page) => page.items) };
    },
    enabled: asked,
    // A random sample is drawn again on "Sample again"; kept while the screen shows it.
    staleTime: 30_000,
  });
  const paths = useMemo(
    () => schema.paths.filter((p) => p.type !== 'List' && p.type !== 'Document' && !p.path.endsWith('._id')),
    [schema.paths],
  );
  const analysis = useMemo(() => (sample.data ? analyseSample(sample.data.items, paths) : null), [sample.data, paths]);
  return (
    <section className="schema-analysis" data-testid="schema-analysis" aria-label={`${schema.collection} sample`}>
      <div className="schema-analysis__bar">
        <h3 className="pane-title">What the data holds</h3>
        <label className="inline-select">
          sample
          <select
            className="select select--small"
            data-testid="schema-sample-size"
            value={`${kind}:${size}`}
            onChange={(e) => {
              const [nextKind, nextSize] = e.target.value.split(':');
              setKind(nextKind === 'newest' ? 'newest' : 'random');
              setSize(Number(nextSize));
            }}
          >
            {(['random', 'newest'] as const).flatMap((k) =>
              SAMPLE_SIZES.map((n) => (
                <option key={`${k}:${n}`} value={`${k}:${n}`}>
                  {k} {n}
                </option>
              )),
            )}
          </select>
        </label>
        <button
          type="button"
          className="button button--secondary button--small"
          data-testid="schema-analyse"
          onClick={() => (asked ? void sample.refetch() : setAsked(true))}
          disabled={sample.isFetching}
        >
          {sample.isFetching ? 'Sampling…' : asked ? 'Sample again' : 'Analyse sample'}
        </button>
        {analysis && (
          <span className="qb-hint" data-testid="schema-sample-count">
            {analysis.records.toLocaleString('en')} records sampled
            {analysis.records < size
              ? ' — the whole collection'
              : kind === 'random'
                ? ` at ${SAMPLE_RUNS} random places`
                : ', the newest'}
          </span>
        )}
      </div>
      {sample.isError && <FaultMessage fault={faultOf(sample.error)} onRetry={() => void sample.refetch()} compact />}
      {analysis && (
        <div className="grid-frame">
          <table className="grid schema-analysis__table">
            <thead>
              <tr>
                <th scope="col">path</th>
                <th scope="col">types seen</th>
                <th scope="col">present</th>
                <th scope="col">values</th>
              </tr>
            </thead>
            <tbody>
              {analysis.paths.map((p) => (
                <AnalysisRow key={p.path} analysis={p} records={analysis.records} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function AnalysisRow({ analysis, records }: { analysis: PathAnalysis; records: number }) {
  const percent = records === 0 ? 0 : Math.round((analysis.present / records) * 100);
  const types = Object.entries(analysis.types);
  return (
    <tr data-testid="schema-analysis-row" data-path={analysis.path}>
      <td className="grid__id">{analysis.path}</td>
      <td>
        {types.length === 0 ? (
          <span className="cell-empty">never set</span>
        ) : (
          types.map(([type, count]) => (
            <span key={type} className="chip" title={`${count} values`}>
              {type}
            </span>
          ))
        )}
      </td>
      <td data-testid="schema-present">
        <span className="schema-analysis__meter" aria-hidden="true">
          <span style={{ width: `${percent}%` }} />
        </span>{' '}
        {percent}%
      </td>
      <td>
        {analysis.range && <Histogram range={analysis.range} />}
        {analysis.top && (
          <span className="schema-analysis__top" title={`${analysis.distinct ?? 0} distinct values`}>
            {analysis.top.map((t) => (
              <span key={t.value} className="chip">
                {t.value === '' ? '""' : t.value} <small>×{t.count}</small>
              </span>
            ))}
            {(analysis.distinct ?? 0) > analysis.top.length && (
              <small className="qb-hint"> +{(analysis.distinct ?? 0) - analysis.top.length} more</small>
            )}
          </span>
        )}
      </td>
    </tr>
  );
}

function Histogram({ range }: { range: NonNullable<PathAnalysis['range']> }) {
  const peak = Math.max(...range.buckets, 1);
  const label = (v: number | string) => (typeof v === 'string' ? v.slice(0, 10) : String(v));
  return (
    <span className="schema-analysis__range">
      <span className="histogram" role="img" aria-label={`from ${label(range.min)} to ${label(range.max)}`}>
        {range.buckets.map((count, index) => (
          <span key={index} style={{ height: `${Math.max(2, (count / peak) * 100)}%` }} title={`${count}`} />
        ))}
      </span>
      <small className="cell-mono">
        {label(range.min)} – {label(range.max)}
      </small>
    </span>
  );
}
