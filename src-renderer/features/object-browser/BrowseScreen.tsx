import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { schemaDef, schemasQuery, type Schema } from '../../api/schemas';
import { FaultMessage } from '../../components/FaultMessage';
import { ScreenHeader } from '../../components/ScreenHeader';
import type { BrowseRoute, Route } from '../../routing/route';
import { QueryPanel, type QueryDraft } from './query-builder/QueryPanel';
import { requestUrl } from './query-builder/request-url';
import { checkSortText, checkWhereText, type TextProblem } from './query-builder/validate-text';
import { planPage, type BaseQuery } from './paging';
import { ResultsSection } from './ResultsSection';
import { AccountSearch } from './account-search/AccountSearch';
import { useServiceOrigin } from '../../api/desktop-connections';
import { AggregationView } from './aggregation/AggregationView';
import { ModeSwitch } from './aggregation/ModeSwitch';
import { referencePaths } from './references/reference-paths';

interface BrowseScreenProps {
  orgClient: OrgClient;
  route: BrowseRoute;
  navigate: (route: Route) => void;
}

/** Object browser: pick a collection, build a query, page through the result. State is the URL. */
export function BrowseScreen({ orgClient, route, navigate }: BrowseScreenProps) {
  const schemas = useQuery(schemasQuery(orgClient));
  const schema = schemas.data?.find((s) => s.collection === route.collection);

  return (
    <section className="screen browse" aria-labelledby="browse-title">
      <ScreenHeader
        title={<span title="Query any collection with the same rules the service applies.">Browse</span>}
        titleId="browse-title"
        actions={
          schemas.data && (
            <>
              {schema?.collection === 'accounts' && !route.agg && (
                <AccountSearch
                  key={route.where ?? ''}
                  where={route.where}
                  onSearch={(where) => navigate({ ...route, where, skip: 0, cursor: undefined, record: undefined })}
                />
              )}
              {schema && <ModeSwitch route={route} navigate={navigate} />}
              <CollectionPicker
                schemas={schemas.data}
                value={route.collection}
                onChange={(collection) =>
                  navigate({
                    screen: 'browse',
                    collection,
                    paths: [],
                    limit: route.limit,
                    skip: 0,
                    view: route.view,
                    org: route.org,
                    // The mode stays; a pipeline belongs to its collection and does not.
                    agg: route.agg,
                  })
                }
              />
            </>
          )
        }
      />
      {schemas.isPending && (
        <p className="status-line" role="status">
          <span className="spinner" aria-hidden="true" /> Loading object definitions…
        </p>
      )}
      {schemas.isError && <FaultMessage fault={faultOf(schemas.error)} onRetry={() => void schemas.refetch()} />}
      {schemas.data && !route.collection && (
        <div className="empty-state" data-testid="browse-empty">
          <p className="empty-state__title">Pick a collection to browse.</p>
          <p>
            {schemas.data.length} collections: {schemas.data.map((s) => s.collection).join(', ')}.
          </p>
        </div>
      )}
      {schemas.data && route.collection && !schema && (
        <FaultMessage
          fault={{
            object: 'fault',
            name: 'error',
            code: 'kNotFound',
            errCode: 'console.unknownCollection',
            status: 0,
            message: `This org has no collection named ${route.collection}. Pick one above.`,
          }}
        />
      )}
      {schema && schemas.data && (
        <CollectionView
          orgClient={orgClient}
          route={route}
          navigate={navigate}
          schema={schema}
          schemas={schemas.data}
        />
      )}
    </section>
  );
}

function CollectionView({
  orgClient,
  route,
  navigate,
  schema,
  schemas,
}: BrowseScreenProps & { schema: Schema; schemas: Schema[] }) {
  // Copied URLs name the service that answers (on the desktop, not the gateway's origin).
  const serviceOrigin = useServiceOrigin();
  const def = useMemo(() => schemaDef(schema), [schema]);
  const defs = useMemo(() => schemas.map(schemaDef), [schemas]);
  const intoReferences = useMemo(() => referencePaths(def, defs), [def, defs]);
  const applied = useMemo(() => appliedQuery(route, def), [route, def]);
  const plan = applied.ok ? planPage(applied.base, route.cursor) : null;
  const url = plan ? requestUrl(serviceOrigin, orgClient.org, schema.collection, plan.request) : null;

  // A saved aggregation opened from the find mode's library switches to the aggregation mode.
  const run = (draft: QueryDraft & { pipeline?: string }) =>
    navigate({
      ...route,
      ...draft,
      agg: draft.pipeline === undefined ? undefined : true,
      skip: 0,
      cursor: undefined,
      record: undefined,
    });

  if (route.agg) {
    return (
      <AggregationView
        orgClient={orgClient}
        route={route}
        navigate={navigate}
        def={def}
        serviceOrigin={serviceOrigin}
      />
    );
  }

  // Remount the panel when the applied query changes (Run, history, back/forward), so its draft
  // starts from what the URL says; edits in between stay local until Run.
  const panelKey = [schema.collection, route.where, route.sort, route.paths.join(','), route.limit].join('\u0000');

  return (
    <>
      <QueryPanel
        key={panelKey}
        def={def}
        referencePaths={intoReferences}
        org={orgClient.org}
        initial={{ where: route.where, sort: route.sort, paths: route.paths, limit: route.limit }}
        requestUrl={url}
        appKey={orgClient.appKey}
        onRun={run}
      />
      {applied.ok && plan ? (
        <ResultsSection
          orgClient={orgClient}
          route={route}
          navigate={navigate}
          schema={schema}
          schemas={schemas}
          base={applied.base}
          plan={plan}
        />
      ) : (
        !applied.ok && (
          <FaultMessage
            fault={{
              object: 'fault',
              name: 'error',
              code: 'kInvalidArgument',
              errCode: applied.problem.errCode,
              status: 0,
              message: 'The query in the address is not valid, so it was not sent. Fix it above and run again.',
              reason: applied.problem.message,
              ...(applied.problem.path ? { path: applied.problem.path } : {}),
            }}
          />
        )
      )}
    </>
  );
}

type Applied = { ok: true; base: BaseQuery } | { ok: false; problem: TextProblem };

/** The route's query, checked by the shared parser before anything is sent. */
function appliedQuery(route: BrowseRoute, def: ReturnType<typeof schemaDef>): Applied {
  const where = checkWhereText(route.where ?? '', def);
  if (!where.ok) return { ok: false, problem: where.problem };
  const sortText =
    route.sort && !route.sort.trim().startsWith('{') ? JSON.stringify({ [route.sort.trim()]: 1 }) : route.sort;
  const sort = checkSortText(sortText ?? '', def);
  if (!sort.ok) return { ok: false, problem: sort.problem };
  return {
    ok: true,
    base: {
      where: where.value as Record<string, unknown> | undefined,
      sort: sort.value as Record<string, 1 | -1> | undefined,
      paths: route.paths,
      limit: route.limit,
      skip: route.skip,
    },
  };
}

function CollectionPicker({
  schemas,
  value,
  onChange,
}: {
  schemas: Schema[];
  value: string | undefined;
  onChange: (collection: string) => void;
}) {
  return (
    <label className="inline-select">
      Collection
      <select
        className="select select--large"
        data-testid="collection-picker"
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value)}
      >
        {value === undefined && <option value="">Choose…</option>}
        {schemas.map((s) => (
          <option key={s.collection} value={s.collection}>
            {s.collection} — {s.label}
          </option>
        ))}
      </select>
    </label>
  );
}
