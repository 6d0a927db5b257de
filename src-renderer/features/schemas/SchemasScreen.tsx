import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CUSTOM_NAME_PATTERN, PROPERTY_TYPES, type PropertyType } from '../../../src-shared/schema/types';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { queryKeys } from '../../api/query-keys';
import {
  addSchemaProperty,
  createSchema,
  deleteSchema,
  schemasQuery,
  type NewPropertyRequest,
  type Schema,
} from '../../api/schemas';
import { FaultMessage } from '../../components/FaultMessage';
import type { Route, SchemasRoute } from '../../routing/route';

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
      <div className="screen__header">
        <div>
          <h1 className="screen__title" id="schemas-title">
            Schemas
          </h1>
          <p className="screen__subtitle">
            <code>GET /{orgClient.org}/v2/schemas</code>
          </p>
        </div>
        <button
          type="button"
          className="button button--primary"
          data-testid="schema-new"
          onClick={() => setCreating((on) => !on)}
        >
          {creating ? 'Close' : '+ Custom object'}
        </button>
      </div>
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

function SchemaDetail({
  orgClient,
  schema,
  onBrowse,
  onDeleted,
}: {
  orgClient: OrgClient;
  schema: Schema;
  onBrowse: () => void;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteSchema(orgClient, schema.name),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.schemas(orgClient.org) });
      onDeleted();
    },
  });
  return (
    <article className="schemas__detail" data-testid="schema-detail" aria-label={`${schema.name} definition`}>
      <header className="schemas__detail-header">
        <div>
          <h2 className="pane-title">{schema.label}</h2>
          <p className="qb-hint">
            object <code>{schema.name}</code> · collection <code>{schema.collection}</code>
          </p>
        </div>
        <div className="drawer__actions">
          <button type="button" className="button button--secondary button--small" onClick={onBrowse}>
            Browse records
          </button>
          {schema.custom &&
            (confirm ? (
              <button
                type="button"
                className="button button--danger button--small"
                data-testid="schema-delete-confirm"
                onClick={() => remove.mutate()}
              >
                Delete {schema.name} and all its records
              </button>
            ) : (
              <button type="button" className="button button--ghost button--small" onClick={() => setConfirm(true)}>
                Delete…
              </button>
            ))}
        </div>
      </header>
      {remove.isError && <FaultMessage fault={faultOf(remove.error)} compact />}
      <div className="grid-frame">
        <table className="grid" data-testid="schema-paths">
          <thead>
            <tr>
              <th scope="col">path</th>
              <th scope="col">type</th>
              <th scope="col">array</th>
              <th scope="col">indexed</th>
              <th scope="col">unique</th>
              <th scope="col">read-only</th>
              <th scope="col">refers to</th>
            </tr>
          </thead>
          <tbody>
            {schema.paths.map((p) => (
              <tr key={p.path} data-testid="schema-path-row">
                <td className="grid__id">{p.path}</td>
                <td>{p.type}</td>
                <td>{p.array ? 'yes' : ''}</td>
                <td>{p.indexed ? <span className="badge badge--ok">indexed</span> : ''}</td>
                <td>{p.unique ? 'unique' : ''}</td>
                <td>{p.readOnly ? 'read-only' : ''}</td>
                <td>{p.refObject ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <NewPropertyForm orgClient={orgClient} schema={schema} />
    </article>
  );
}

const NEW_TYPES = PROPERTY_TYPES.filter((t) => t !== 'List' && t !== 'Reference');

interface PropertyDraft {
  suffix: string;
  type: PropertyType;
  indexed: boolean;
  unique: boolean;
  array: boolean;
}

const EMPTY_PROPERTY: PropertyDraft = { suffix: '', type: 'String', indexed: true, unique: false, array: false };

function toRequest(draft: PropertyDraft): NewPropertyRequest {
  const request: NewPropertyRequest = { name: `c_${draft.suffix}`, type: draft.type };
  if (draft.indexed) request.indexed = true;
  if (draft.unique) request.unique = true;
  if (draft.array) request.array = true;
  if (draft.type === 'Document') request.properties = [];
  return request;
}

/** `c_` + lower-case letters, digits and `_`: the prefix is fixed, the rest is typed. */
function nameProblem(suffix: string): string | null {
  if (suffix === '') return 'Enter a name.';
  return CUSTOM_NAME_PATTERN.test(`c_${suffix}`) ? null : 'Use lower-case letters, digits and _ only.';
}

function PropertyFields({
  draft,
  onChange,
  testPrefix,
}: {
  draft: PropertyDraft;
  onChange: (draft: PropertyDraft) => void;
  testPrefix: string;
}) {
  const problem = draft.suffix === '' ? null : nameProblem(draft.suffix);
  return (
    <div className="prop-row">
      <label className="prefixed" title="Custom names start with c_">
        <span className="prefixed__prefix">c_</span>
        <input
          className={problem ? 'input input--mono input--invalid' : 'input input--mono'}
          aria-label="Property name after c_"
          data-testid={`${testPrefix}-name`}
          value={draft.suffix}
          placeholder="name"
          onChange={(e) => onChange({ ...draft, suffix: e.target.value.replace(/^c_/, '') })}
        />
      </label>
      <select
        className="select"
        aria-label="Type"
        data-testid={`${testPrefix}-type`}
        value={draft.type}
        onChange={(e) => onChange({ ...draft, type: e.target.value as PropertyType })}
      >
        {NEW_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <label className="check">
        <input
          type="checkbox"
          data-testid={`${testPrefix}-indexed`}
          checked={draft.indexed}
          onChange={(e) => onChange({ ...draft, indexed: e.target.checked })}
        />
        indexed
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={draft.unique}
          onChange={(e) => onChange({ ...draft, unique: e.target.checked })}
        />
        unique
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={draft.array}
          onChange={(e) => onChange({ ...draft, array: e.target.checked })}
        />
        array
      </label>
      {problem && <span className="qb-inline-error">{problem}</span>}
    </div>
  );
}

function NewPropertyForm({ orgClient, schema }: { orgClient: OrgClient; schema: Schema }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<PropertyDraft>(EMPTY_PROPERTY);
  const add = useMutation({
    mutationFn: () => addSchemaProperty(orgClient, schema.name, toRequest(draft)),
    onSuccess: async () => {
      setDraft(EMPTY_PROPERTY);
      await queryClient.invalidateQueries({ queryKey: queryKeys.schemas(orgClient.org) });
    },
  });
  return (
    <form
      className="panel"
      data-testid="property-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!nameProblem(draft.suffix)) add.mutate();
      }}
    >
      <h3 className="pane-title">Add a custom property to {schema.name}</h3>
      <PropertyFields draft={draft} onChange={setDraft} testPrefix="property" />
      {add.isError && <FaultMessage fault={faultOf(add.error)} compact />}
      <button
        type="submit"
        className="button button--secondary"
        disabled={add.isPending || nameProblem(draft.suffix) !== null}
        data-testid="property-add"
      >
        Add property
      </button>
    </form>
  );
}

function NewObjectForm({ orgClient, onCreated }: { orgClient: OrgClient; onCreated: (schema: Schema) => void }) {
  const queryClient = useQueryClient();
  const [suffix, setSuffix] = useState('');
  const [label, setLabel] = useState('');
  const [properties, setProperties] = useState<PropertyDraft[]>([EMPTY_PROPERTY]);
  const problems = [nameProblem(suffix), ...properties.map((p) => nameProblem(p.suffix))].filter(Boolean);
  const create = useMutation({
    mutationFn: () =>
      createSchema(orgClient, {
        name: `c_${suffix}`,
        label: label.trim() || `c_${suffix}`,
        properties: properties.map(toRequest),
      }),
    onSuccess: async (schema) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.schemas(orgClient.org) });
      onCreated(schema);
    },
  });
  return (
    <form
      className="panel"
      data-testid="schema-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (problems.length === 0) create.mutate();
      }}
    >
      <h2 className="pane-title">New custom object</h2>
      <div className="prop-row">
        <label className="prefixed">
          <span className="prefixed__prefix">c_</span>
          <input
            className="input input--mono"
            aria-label="Object name after c_"
            data-testid="schema-name"
            value={suffix}
            placeholder="object name (singular)"
            onChange={(e) => setSuffix(e.target.value.replace(/^c_/, ''))}
          />
        </label>
        <input
          className="input"
          aria-label="Label"
          data-testid="schema-label"
          value={label}
          placeholder="Label"
          onChange={(e) => setLabel(e.target.value)}
        />
      </div>
      <p className="qb-hint">The collection is named after the object with an s (c_visit → c_visits).</p>
      {properties.map((draft, index) => (
        <PropertyFields
          key={index}
          draft={draft}
          testPrefix={`schema-prop-${index}`}
          onChange={(next) => setProperties((all) => all.map((p, i) => (i === index ? next : p)))}
        />
      ))}
      <div className="form__actions">
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => setProperties((all) => [...all, EMPTY_PROPERTY])}
        >
          + Property
        </button>
        <button
          type="submit"
          className="button button--primary"
          disabled={create.isPending || problems.length > 0}
          data-testid="schema-create"
        >
          Create object
        </button>
      </div>
      {create.isError && <FaultMessage fault={faultOf(create.error)} compact />}
    </form>
  );
}
