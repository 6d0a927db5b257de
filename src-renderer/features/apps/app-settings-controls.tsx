import { Field, FieldError } from '../../components/Field';

/** A list setting (origins, addresses), one entry per line. */
export function ListField(props: {
  label: string;
  hint: string;
  value: string;
  error: string | undefined;
  testId: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={props.label} hint={props.hint} error={props.error} errorTestId="field-error">
      {(id, describedBy) => (
        <textarea
          id={id}
          className="input input--area"
          rows={3}
          spellCheck={false}
          data-testid={props.testId}
          value={props.value}
          aria-describedby={describedBy}
          aria-invalid={props.error ? true : undefined}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** A switch, with the service's fault for it beside it. */
export function Check(props: {
  label: string;
  checked: boolean;
  disabled?: boolean | undefined;
  title?: string | undefined;
  error: string | undefined;
  testId: string;
  onChange: (value: boolean) => void;
}) {
  return (
    <span>
      <label className={props.disabled ? 'check check--disabled' : 'check'} title={props.title}>
        <input
          type="checkbox"
          checked={props.checked}
          disabled={props.disabled}
          data-testid={props.testId}
          aria-invalid={props.error ? true : undefined}
          onChange={(e) => props.onChange(e.target.checked)}
        />
        {props.label}
      </label>
      {props.error && (
        <FieldError as="span" testId="field-error">
          {' '}
          {props.error}
        </FieldError>
      )}
    </span>
  );
}
