import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import type { Schema } from '../../api/schemas';
import { deleteView, saveView, viewKeys, viewVariables, type ViewRecord } from '../../api/views';
import { FaultMessage } from '../../components/FaultMessage';
import { draftOf, emptyForm, fieldOfFault, formOf, type FormField, type RangeForm, type ViewForm } from './view-form';

interface ViewEditorProps {
  orgClient: OrgClient;
  view: ViewRecord | null;
  schemas: Schema[];
  onSaved: (view: ViewRecord) => void;
  onDeleted: () => void;
}

/** Create or edit a view; the service validates on save and its fault is shown at the field it names. */
export function ViewEditor({ orgClient, view, schemas, onSaved, onDeleted }: ViewEditorProps) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ViewForm>(() => (view ? formOf(view) : emptyForm(schemas[0]?.name ?? '')));
  const [saved, setSaved] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { draft, queryFields } = draftOf(form);
  const save = useMutation({
    mutationFn: () => saveView(orgClient, draft, view?._id),
    onSuccess: async (result) => {
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: viewKeys.all(orgClient.org) });
      onSaved(result);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteView(orgClient, view!._id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: viewKeys.all(orgClient.org) });
      onDeleted();
    },
  });
  const fault = save.error instanceof ApiError ? save.error.fault : save.isError ? faultOf(save.error) : undefined;
  const faultField = fieldOfFault(fault?.path, queryFields);
  const errorAt = (field: FormField): ReactNode =>
    fault && faultField === field ? (
      <span className="field__error" data-testid={`view-error-${field}`}>
        {fault.reason ?? fault.message}
      </span>
    ) : null;
  const cls = (field: FormField, wide = false) =>
    ['field', wide ? 'field--wide' : '', faultField === field && fault ? 'field--invalid' : '']
      .filter(Boolean)
      .join(' ');
  const set = <K extends keyof ViewForm>(key: K, value: ViewForm[K]) => {
    setSaved(false);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const variables = viewVariables({ query: draft.query });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <form className="panel" data-testid="view-form" onSubmit={submit} noValidate>
      <p className="panel__title">{view ? view.label || view.name : 'New view'}</p>
      <div className="form-grid">
        <label className={cls('name')}>
          <span className="field__label">Name (in the URL)</span>
          <input
            className="input input--mono"
            data-testid="view-name"
            value={form.name}
            onChange={(e) => set('name', e.target.value)}
            autoFocus={view === null}
          />
          {errorAt('name')}
        </label>
        <label className={cls('label')}>
          <span className="field__label">Label</span>
          <input
            className="input"
            data-testid="view-label"
            value={form.label}
            onChange={(e) => set('label', e.target.value)}
          />
          {errorAt('label')}
        </label>
        <label className={cls('sourceObject')}>
          <span className="field__label">Source object</span>
          <select
            className="select"
            data-testid="view-source"
            value={form.sourceObject}
            onChange={(e) => set('sourceObject', e.target.value)}
          >
            {!schemas.some((s) => s.name === form.sourceObject) && (
              <option value={form.sourceObject}>{form.sourceObject || 'Choose…'}</option>
            )}
            {schemas.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name} — {s.label}
              </option>
            ))}
          </select>
          {errorAt('sourceObject')}
        </label>
        <label className={cls('principal')}>
          <span className="field__label">Run as (account email or _id; blank: the caller)</span>
          <input
            className="input"
            data-testid="view-principal"
            value={form.principal}
            onChange={(e) => set('principal', e.target.value)}
          />
          {errorAt('principal')}
        </label>
        <label className={cls('description', true)}>
          <span className="field__label">Description</span>
          <input
            className="input"
            data-testid="view-description"
            value={form.description}
            onChange={(e) => set('description', e.target.value)}
          />
          {errorAt('description')}
        </label>
        <label className={cls('where', true)}>
          <span className="field__label">
            where (JSON; <code>{'"{{name}}"'}</code> is a variable filled from <code>?name=</code>)
          </span>
          <textarea
            className="input input--mono view-editor__query"
            data-testid="view-where"
            spellCheck={false}
            value={form.where}
            placeholder={'{"c_status": "{{status}}"}'}
            onChange={(e) => set('where', e.target.value)}
          />
          {errorAt('where')}
        </label>
        <label className={cls('sort', true)}>
          <span className="field__label">sort (JSON)</span>
          <input
            className="input input--mono"
            data-testid="view-sort"
            spellCheck={false}
            value={form.sort}
            placeholder={'{"created": -1}'}
            onChange={(e) => set('sort', e.target.value)}
          />
          {errorAt('sort')}
        </label>
      </div>
      <p className="note" data-testid="view-variables">
        Variables:{' '}
        {variables.length === 0
          ? 'none'
          : variables.map((v) => (
              <code key={v} className="view-chip">
                {v}
              </code>
            ))}
      </p>
      <div className="view-editor__ranges">
        <RangeFields legend="limit" value={form.limit} onChange={(r) => set('limit', r)} error={errorAt('limit')} />
        <RangeFields legend="skip" value={form.skip} onChange={(r) => set('skip', r)} error={errorAt('skip')} />
        <fieldset className="view-editor__range">
          <legend>paths</legend>
          <label className="check">
            <input
              type="checkbox"
              checked={form.pathsSettable}
              data-testid="view-paths-settable"
              onChange={(e) => set('pathsSettable', e.target.checked)}
            />
            caller may set
          </label>
          <label className={cls('pathsDefault')}>
            <span className="field__label">default</span>
            <input
              className="input input--mono"
              data-testid="view-paths-default"
              value={form.pathsDefault}
              onChange={(e) => set('pathsDefault', e.target.value)}
            />
            {errorAt('pathsDefault')}
          </label>
          <label className={cls('pathsLimitTo')}>
            <span className="field__label">limit to</span>
            <input
              className="input input--mono"
              data-testid="view-paths-limit-to"
              value={form.pathsLimitTo}
              onChange={(e) => set('pathsLimitTo', e.target.value)}
            />
            {errorAt('pathsLimitTo')}
          </label>
        </fieldset>
      </div>
      <div className="form-grid">
        <label className={cls('acl')}>
          <span className="field__label">
            Who may run it (one a line: role &lt;code&gt; · account &lt;_id or *&gt;; none: administrators)
          </span>
          <textarea
            className="input input--mono"
            data-testid="view-acl"
            spellCheck={false}
            value={form.acl}
            placeholder={'role analyst\naccount *'}
            onChange={(e) => set('acl', e.target.value)}
          />
          {errorAt('acl')}
        </label>
        <label className="check view-editor__active">
          <input
            type="checkbox"
            data-testid="view-active"
            checked={form.active}
            onChange={(e) => set('active', e.target.checked)}
          />
          Active (an inactive view answers accessDenied.view)
        </label>
      </div>
      {fault && !faultField && <FaultMessage fault={fault} compact />}
      {fault && faultField && (
        <p className="field__error" role="alert" data-testid="view-save-fault">
          Not saved: {fault.errCode} at <code>{fault.path}</code>.
        </p>
      )}
      {saved && !save.isPending && (
        <p className="note note--ok" role="status" data-testid="view-saved">
          Saved.
        </p>
      )}
      <div className="form__actions">
        <button type="submit" className="button button--primary" data-testid="view-save" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : view ? 'Save view' : 'Create view'}
        </button>
        {view && !confirmDelete && (
          <button
            type="button"
            className="button button--ghost"
            data-testid="view-delete"
            onClick={() => setConfirmDelete(true)}
          >
            Delete…
          </button>
        )}
      </div>
      {view && confirmDelete && (
        <div className="confirm" role="alertdialog" aria-label="Confirm deletion">
          Delete the view {view.name}? Its URL stops working.
          <button
            type="button"
            className="button button--danger button--small"
            data-testid="view-delete-confirm"
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            Delete
          </button>
          <button type="button" className="button button--ghost button--small" onClick={() => setConfirmDelete(false)}>
            Cancel
          </button>
        </div>
      )}
      {remove.isError && <FaultMessage fault={faultOf(remove.error)} compact />}
    </form>
  );
}

function RangeFields({
  legend,
  value,
  onChange,
  error,
}: {
  legend: string;
  value: RangeForm;
  onChange: (r: RangeForm) => void;
  error: ReactNode;
}) {
  const input = (key: 'defaultValue' | 'min' | 'max', label: string) => (
    <label className="field">
      <span className="field__label">{label}</span>
      <input
        className="input input--mono"
        inputMode="numeric"
        data-testid={`view-${legend}-${key}`}
        value={value[key]}
        onChange={(e) => onChange({ ...value, [key]: e.target.value })}
      />
    </label>
  );
  return (
    <fieldset className={error ? 'view-editor__range field--invalid' : 'view-editor__range'}>
      <legend>{legend}</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={value.settable}
          data-testid={`view-${legend}-settable`}
          onChange={(e) => onChange({ ...value, settable: e.target.checked })}
        />
        caller may set
      </label>
      <div className="view-editor__numbers">
        {input('defaultValue', 'default')}
        {input('min', 'min')}
        {input('max', 'max')}
      </div>
      {error}
    </fieldset>
  );
}
