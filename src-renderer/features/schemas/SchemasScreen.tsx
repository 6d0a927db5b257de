import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { schemasQuery } from '../../api/schemas';
import { FaultMessage } from '../../components/FaultMessage';
import { ScreenHeader } from '../../components/ScreenHeader';
import type { Route, SchemasRoute } from '../../routing/route';
import { NewObjectForm } from './PropertyForms';
import { SchemaDetail } from './SchemaDetail';

interface SchemasScreenProps {
  orgClient: OrgClient;
  route: SchemasRoute;
  navigate: (route: Route) => void;
}

/** Object definitions with every fully qualified path; create custom objects and properties. */
export function SchemasScreen({ orgClient, route, navigate }: SchemasScreenProps) {
  const schemas = useQuery(schemasQuery(orgClient));
  const selected = schemas.data?.find((s) => s.name === route.name) ?? schemas.data?.[0];
  const [creating, setCreating] = useState(false);
  const select = (name: string) => navigate({ ...route, name });

  return (
    <section className="screen" aria-labelledby="schemas-title">
      <ScreenHeader
        title="Schemas"
        titleId="schemas-title"
        description={<code>GET /{orgClient.org}/v2/schemas</code>}
        actions={
          <button
            type="button"
            className="button button--primary"
            data-testid="schema-new"
            onClick={() => setCreating((on) => !on)}
          >
            {creating ? 'Close' : '+ Custom object'}
          </button>
        }
      />
      {schemas.isPending && (
        <p className="status-line" role="status">
          <span className="spinner" aria-hidden="true" /> Loading object definitions…
        </p>
      )}
      {schemas.isError && <FaultMessage fault={faultOf(schemas.error)} onRetry={() => void schemas.refetch()} />}
      {creating && (
        <NewObjectForm
          orgClient={orgClient}
          onCreated={(schema) => {
            setCreating(false);
            select(schema.name);
          }}
        />
      )}
      {schemas.data && schemas.data.length === 0 && <p className="empty-state">No object definitions.</p>}
      {schemas.data && selected && (
        <div className="schemas">
          <ul className="schemas__list" data-testid="schema-list" aria-label="Objects">
            {schemas.data.map((s) => (
              <li key={s.name}>
                <button
                  type="button"
                  className={s.name === selected.name ? 'schemas__item schemas__item--on' : 'schemas__item'}
                  aria-current={s.name === selected.name || undefined}
                  data-testid="schema-item"
                  onClick={() => select(s.name)}
                >
                  <span>{s.label}</span>
                  <code>{s.name}</code>
                  {s.custom && <span className="badge badge--muted">custom</span>}
                </button>
              </li>
            ))}
          </ul>
          <SchemaDetail
            key={selected.name}
            orgClient={orgClient}
            schema={selected}
            onBrowse={() =>
              navigate({
                screen: 'browse',
                collection: selected.collection,
                paths: [],
                limit: 100,
                skip: 0,
                view: 'table',
                org: route.org,
              })
            }
            onDeleted={() => navigate({ screen: 'schemas', org: route.org })}
          />
        </div>
      )}
    </section>
  );
}
