import { useQuery } from '@tanstack/react-query';
import type { OrgClient } from '../../api/org-client';
import { schemasQuery } from '../../api/schemas';
import { viewsQuery, viewVariables, type ViewRecord } from '../../api/views';
import { FaultMessage } from '../../components/FaultMessage';
import { QueryState } from '../../components/QueryState';
import { ScreenHeader } from '../../components/ScreenHeader';
import type { Route } from '../../routing/route';
import type { ViewsRoute } from './views-route';
import { ViewEditor } from './ViewEditor';
import { ViewRunner } from './ViewRunner';
import { ViewTokenPanel } from './ViewTokenPanel';
import '../../styles/access.css';
import '../../styles/keys.css';
import '../../styles/views.css';

interface ViewsScreenProps {
  orgClient: OrgClient;
  route: ViewsRoute;
  navigate: (route: Route) => void;
}

/** Views: stored queries with variables, run by URL; edit, run, and share one with a view-only token. */
export function ViewsScreen({ orgClient, route, navigate }: ViewsScreenProps) {
  const views = useQuery(viewsQuery(orgClient));
  const schemas = useQuery(schemasQuery(orgClient));
  const selected = route.name && route.name !== 'new' ? views.data?.find((v) => v.name === route.name) : undefined;
  const schema = selected ? schemas.data?.find((s) => s.name === selected.sourceObject) : undefined;
  const ready = views.data && schemas.data;

  return (
    <section className="screen screen--scroll views-screen" aria-labelledby="views-title">
      <ScreenHeader
        title="Views"
        titleId="views-title"
        description={
          <>
            Stored queries run by URL, <code>/{orgClient.org}/v2/views/&lt;name&gt;?variable=…</code>, with only{' '}
            <code>view.execute.&lt;name&gt;</code> needed.
          </>
        }
        actions={
          <button
            type="button"
            className="button button--primary"
            data-testid="view-new"
            onClick={() => navigate({ ...route, name: 'new' })}
          >
            New view
          </button>
        }
      />
      {/* Content needs both answers; whichever is missing shows its loading or fault state. */}
      {!views.data && (
        <QueryState query={views} loading="Loading views…">
          {() => null}
        </QueryState>
      )}
      {views.data && !schemas.data && (
        <QueryState query={schemas} loading="Loading object definitions…">
          {() => null}
        </QueryState>
      )}
      {ready && (
        <div className="access-split access-split--roles">
          <ul className="schemas__list" data-testid="views-list" aria-label="Views">
            {views.data.length === 0 && (
              <li className="note" data-testid="views-empty">
                No views yet. Make one here, or from Browse with “Save as view”.
              </li>
            )}
            {views.data.map((view) => {
              const variables = viewVariables(view);
              return (
                <li key={view._id}>
                  <button
                    type="button"
                    className={view.name === route.name ? 'schemas__item schemas__item--on' : 'schemas__item'}
                    data-testid="view-item"
                    data-name={view.name}
                    aria-current={view.name === route.name ? 'true' : undefined}
                    onClick={() => navigate({ ...route, name: view.name })}
                  >
                    <span>{view.label || view.name}</span>
                    {view.active === false ? (
                      <span className="badge badge--muted">inactive</span>
                    ) : (
                      <span className="badge badge--ok">{view.sourceObject}</span>
                    )}
                    <code className="view-item__vars" data-testid="view-item-vars">
                      <span className="view-item__name">{view.name}</span>
                      {variables.map((v, index) => (
                        <span key={v}>
                          {index === 0 ? ' · ' : ' '}
                          <span className="view-item__var">{`{${v}}`}</span>
                        </span>
                      ))}
                    </code>
                  </button>
                </li>
              );
            })}
          </ul>
          <div className="access-column">
            {route.name === 'new' ? (
              <ViewEditor
                key="new"
                orgClient={orgClient}
                view={null}
                schemas={schemas.data}
                onSaved={(view) => navigate({ ...route, name: view.name })}
                onDeleted={() => navigate({ ...route, name: undefined })}
              />
            ) : selected ? (
              <>
                <ViewRunner key={runnerKey(selected)} orgClient={orgClient} view={selected} schema={schema} />
                <ViewTokenPanel key={`token-${selected._id}`} orgClient={orgClient} view={selected} />
                <ViewEditor
                  key={selected._id}
                  orgClient={orgClient}
                  view={selected}
                  schemas={schemas.data}
                  onSaved={(view) => navigate({ ...route, name: view.name })}
                  onDeleted={() => navigate({ ...route, name: undefined })}
                />
              </>
            ) : route.name ? (
              <FaultMessage
                fault={{
                  object: 'fault',
                  name: 'error',
                  code: 'kNotFound',
                  errCode: 'console.unknownView',
                  status: 0,
                  message: `There is no view ${route.name}. Pick one from the list.`,
                }}
              />
            ) : (
              <div className="empty-state" data-testid="view-empty">
                <p className="empty-state__title">Pick a view to run or edit</p>
                <p>Or define a new one with “New view”.</p>
              </div>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

/** A new run form for another view, and when saved defaults change (what was run before still comes first). */
const runnerKey = (view: ViewRecord) =>
  `run-${view._id}-${view.name}-${JSON.stringify((view.variables ?? []).map((v) => [v.name, v.defaultValue ?? null]))}`;
