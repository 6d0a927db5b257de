/** The forms that add a custom object or a custom property (any type, Reference and List included). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { PropertyType } from '../../../src-shared/schema/types';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { queryKeys } from '../../api/query-keys';
import { addSchemaProperty, createSchema, schemasQuery, type Schema } from '../../api/schemas';
import { FaultMessage } from '../../components/FaultMessage';
import {
  draftProblem,
  EMPTY_PROPERTY,
  indexable,
  nameProblem,
  NEW_TYPES,
  refersToObject,
  toRequest,
  type PropertyDraft,
} from './property-draft';

/** Object names a Reference or List may point at (from the cached definitions). */
function useObjectNames(orgClient: OrgClient): string[] {
  const schemas = useQuery(schemasQuery(orgClient));
  return (schemas.data ?? []).map((s) => s.name);
}

function PropertyFields({
  draft,
  onChange,
  testPrefix,
  objects,
}: {
  draft: PropertyDraft;
  onChange: (draft: PropertyDraft) => void;
  testPrefix: string;
  /** Object names a Reference or List may point at. */
  objects: readonly string[];
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
      {refersToObject(draft.type) && (
        <select
          className="select"
          aria-label="Refers to object"
          data-testid={`${testPrefix}-ref`}
          value={draft.refObject}
          onChange={(e) => onChange({ ...draft, refObject: e.target.value })}
        >
          <option value="">refers to…</option>
          {objects.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      )}
      <label className="check">
        <input
          type="checkbox"
          data-testid={`${testPrefix}-indexed`}
          disabled={!indexable(draft.type)}
          title={indexable(draft.type) ? undefined : `A ${draft.type} cannot be indexed.`}
          checked={draft.indexed && indexable(draft.type)}
          onChange={(e) => onChange({ ...draft, indexed: e.target.checked })}
        />
        indexed
      </label>
      <label className="check">
        <input
          type="checkbox"
          disabled={!indexable(draft.type)}
          checked={draft.unique && indexable(draft.type)}
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

export function NewPropertyForm({ orgClient, schema }: { orgClient: OrgClient; schema: Schema }) {
  const queryClient = useQueryClient();
  const objects = useObjectNames(orgClient);
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
        if (!draftProblem(draft)) add.mutate();
      }}
    >
      <h3 className="pane-title">Add a custom property to {schema.name}</h3>
      <PropertyFields draft={draft} onChange={setDraft} testPrefix="property" objects={objects} />
      {add.isError && <FaultMessage fault={faultOf(add.error)} compact />}
      <button
        type="submit"
        className="button button--secondary"
        disabled={add.isPending || draftProblem(draft) !== null}
        data-testid="property-add"
      >
        Add property
      </button>
    </form>
  );
}

export function NewObjectForm({ orgClient, onCreated }: { orgClient: OrgClient; onCreated: (schema: Schema) => void }) {
  const objects = useObjectNames(orgClient);
  const queryClient = useQueryClient();
  const [suffix, setSuffix] = useState('');
  const [label, setLabel] = useState('');
  const [properties, setProperties] = useState<PropertyDraft[]>([EMPTY_PROPERTY]);
  const problems = [nameProblem(suffix), ...properties.map((p) => draftProblem(p))].filter(Boolean);
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
          objects={objects}
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
