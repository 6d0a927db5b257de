import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { FaultBody } from '../../../../src-shared/faults';
import { faultOf } from '../../../api/api-error';
import type { OrgClient } from '../../../api/org-client';
import { createRecord, deleteRecord, patchRecord, type ObjectRecord } from '../../../api/records';
import type { Schema } from '../../../api/schemas';
import { Field, FieldError, FieldType } from '../../../components/Field';
import { FaultMessage } from '../../../components/FaultMessage';
import { isoToPicker } from '../query-builder/values';
import { buildBody, faultsByField, formFields, initialValues, type FormField, type FormValues } from './form-model';

export type EditorMode = { kind: 'create' } | { kind: 'edit'; record: ObjectRecord };

interface RecordEditorProps {
  orgClient: OrgClient;
  schema: Schema;
  mode: EditorMode;
  onClose: () => void;
  onSaved: (record: ObjectRecord) => void;
}

/** Create or edit a record with a form generated from its definition; faults land on their fields. */
export function RecordEditor({ orgClient, schema, mode, onClose, onSaved }: RecordEditorProps) {
  const fields = useMemo(() => formFields(schema.properties, schema.collection), [schema]);
  const initial = useMemo(() => (mode.kind === 'edit' ? initialValues(fields, mode.record) : null), [fields, mode]);
  const [values, setValues] = useState<FormValues>(() => initial ?? initialValues(fields, null));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const firstInput = useRef<HTMLFormElement>(null);

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      mode.kind === 'create'
        ? createRecord(orgClient, schema.collection, body)
        : patchRecord(orgClient, schema.collection, mode.record._id, body),
    onSuccess: onSaved,
  });
  const serverFaults = save.isError ? faultsByField(faultOf(save.error), fields) : null;

  useEffect(() => {
    firstInput.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const submit = () => {
    const built = buildBody(fields, values, initial);
    setLocalErrors(built.errors);
    if (Object.keys(built.errors).length > 0) return;
    save.mutate(built.body);
  };

  const title = mode.kind === 'create' ? `New ${schema.label}` : `Edit ${schema.label}`;
  return (
    <aside className="drawer" role="dialog" aria-label={title} data-testid="record-editor">
      <header className="drawer__header">
        <div>
          <p className="drawer__kind">{schema.collection}</p>
          <h2 className="drawer__title">{title}</h2>
          {mode.kind === 'edit' && <code className="qb-hint">{mode.record._id}</code>}
        </div>
        <button type="button" className="button button--ghost" onClick={onClose} data-testid="record-cancel">
          Cancel
        </button>
      </header>
      <form
        ref={firstInput}
        className="drawer__body form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {serverFaults && serverFaults.rest.length > 0 && (
          <FaultMessage fault={restFault(faultOf(save.error), serverFaults.rest)} compact />
        )}
        {serverFaults && serverFaults.rest.length === 0 && (
          <FieldError alert testId="record-fault-summary">
            The service refused some values; see the fields marked below ({faultOf(save.error).errCode}).
          </FieldError>
        )}
        {fields.map((field) =>
          field.createOnly && mode.kind === 'edit' ? null : (
            <FieldInput
              key={field.path}
              field={field}
              value={values[field.path] ?? ''}
              error={localErrors[field.path] ?? serverFaults?.byField[field.path]}
              onChange={(value) => setValues((all) => ({ ...all, [field.path]: value }))}
            />
          ),
        )}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={save.isPending} data-testid="record-save">
            {save.isPending ? 'Saving…' : mode.kind === 'create' ? 'Create' : 'Save changes'}
          </button>
        </div>
      </form>
    </aside>
  );
}

/** The fault without the children already shown on fields. */
function restFault(fault: FaultBody, rest: FaultBody[]): FaultBody {
  return fault.faults && fault.faults.length > 0 ? { ...fault, faults: rest } : fault;
}

function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: FormField;
  value: string | boolean | null;
  error: string | undefined;
  onChange: (value: string | boolean | null) => void;
}) {
  const testId = `record-field-${field.path}`;
  const text = typeof value === 'string' ? value : '';
  // The shared Field wires the label and the error to the control through these ids.
  const control = (id: string, describedBy: string | undefined) => {
    const common = {
      id,
      'data-testid': testId,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': describedBy,
    };
    let input;
    switch (field.kind) {
      case 'boolean':
        input = (
          <select
            {...common}
            className="select select--large"
            value={value === null ? '' : String(value)}
            onChange={(e) => onChange(e.target.value === '' ? null : e.target.value === 'true')}
          >
            <option value="">(not set)</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        );
        break;
      case 'enum':
        input = (
          <select {...common} className="select select--large" value={text} onChange={(e) => onChange(e.target.value)}>
            <option value="">(not set)</option>
            {field.options?.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        );
        break;
      case 'date':
        input = (
          <input
            {...common}
            type="datetime-local"
            step="1"
            className="input input--mono"
            value={isoToPicker(text) || text}
            onChange={(e) => onChange(e.target.value)}
          />
        );
        break;
      case 'lines':
      case 'json':
        input = (
          <textarea
            {...common}
            className="input input--mono input--area"
            rows={field.kind === 'json' ? 4 : 3}
            placeholder={field.kind === 'lines' ? 'One value per line' : 'JSON'}
            value={text}
            onChange={(e) => onChange(e.target.value)}
          />
        );
        break;
      default:
        input = (
          <input
            {...common}
            type={field.path === 'password' ? 'password' : 'text'}
            autoComplete={field.path === 'password' ? 'new-password' : 'off'}
            className={field.kind === 'text' ? 'input' : 'input input--mono'}
            inputMode={field.kind === 'number' || field.kind === 'integer' ? 'decimal' : undefined}
            placeholder={field.kind === 'id' || field.kind === 'reference' ? '24 hex characters' : undefined}
            value={text}
            onChange={(e) => onChange(e.target.value)}
          />
        );
    }
    return input;
  };
  return (
    <Field
      label={
        <>
          {field.label}
          {field.required && <span aria-label="required"> *</span>}
          <FieldType>{field.kind === 'date' ? 'Date (UTC)' : field.kind}</FieldType>
        </>
      }
      error={error}
      errorTestId="record-field-error"
    >
      {control}
    </Field>
  );
}

interface RecordActionsProps {
  orgClient: OrgClient;
  schema: Schema;
  record: ObjectRecord;
  onEdit: () => void;
  onDeleted: () => void;
}

/** Edit and Delete for the record in the drawer; Delete asks first. */
export function RecordActions({ orgClient, schema, record, onEdit, onDeleted }: RecordActionsProps) {
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteRecord(orgClient, schema.collection, record._id),
    onSuccess: onDeleted,
  });
  return (
    <>
      {remove.isError && <FaultMessage fault={faultOf(remove.error)} compact />}
      <button type="button" className="button button--secondary" onClick={onEdit} data-testid="record-edit">
        Edit
      </button>
      {confirming ? (
        <>
          <button
            type="button"
            className="button button--danger"
            onClick={() => remove.mutate()}
            disabled={remove.isPending}
            data-testid="record-delete-confirm"
          >
            {remove.isPending ? 'Deleting…' : 'Delete for good'}
          </button>
          <button type="button" className="button button--ghost" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </>
      ) : (
        <button
          type="button"
          className="button button--ghost"
          onClick={() => setConfirming(true)}
          data-testid="record-delete"
        >
          Delete
        </button>
      )}
    </>
  );
}
