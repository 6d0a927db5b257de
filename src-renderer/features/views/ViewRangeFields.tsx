import { Field, FieldError } from '../../components/Field';
import type { FormField, RangeForm, ViewForm } from './view-form';
import type { FieldFault } from './use-view-editor';

/** A range the caller may set (limit, skip): settable, default, min and max. */
export function RangeFields({
  legend,
  value,
  onChange,
  fault,
}: {
  legend: string;
  value: RangeForm;
  onChange: (r: RangeForm) => void;
  fault: FieldFault;
}) {
  const input = (key: 'defaultValue' | 'min' | 'max', label: string) => (
    <Field label={label}>
      <input
        className="input input--mono"
        inputMode="numeric"
        data-testid={`view-${legend}-${key}`}
        value={value[key]}
        onChange={(e) => onChange({ ...value, [key]: e.target.value })}
      />
    </Field>
  );
  return (
    <fieldset className={fault.error ? 'view-editor__range field--invalid' : 'view-editor__range'}>
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
      {fault.error && (
        <FieldError as="span" testId={fault.errorTestId}>
          {fault.error}
        </FieldError>
      )}
    </fieldset>
  );
}

/** Which paths a run returns: settable by the caller, a default, and a limit. */
export function PathFields({
  form,
  set,
  faultAt,
}: {
  form: ViewForm;
  set: <K extends keyof ViewForm>(key: K, value: ViewForm[K]) => void;
  faultAt: (field: FormField) => FieldFault;
}) {
  return (
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
      <Field label="default" {...faultAt('pathsDefault')}>
        <input
          className="input input--mono"
          data-testid="view-paths-default"
          value={form.pathsDefault}
          onChange={(e) => set('pathsDefault', e.target.value)}
        />
      </Field>
      <Field label="limit to" {...faultAt('pathsLimitTo')}>
        <input
          className="input input--mono"
          data-testid="view-paths-limit-to"
          value={form.pathsLimitTo}
          onChange={(e) => set('pathsLimitTo', e.target.value)}
        />
      </Field>
    </fieldset>
  );
}
