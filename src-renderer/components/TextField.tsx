import type { InputHTMLAttributes } from 'react';
import { Field } from './Field';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: string;
  error?: string | undefined;
  testId: string;
}

/** A labelled input whose hint and error are announced with it (aria-describedby). */
export function TextField({ label, hint, error, testId, className, ...inputProps }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(id, describedBy) => (
        <input
          {...inputProps}
          id={id}
          className={className ? `input ${className}` : 'input'}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          data-testid={testId}
        />
      )}
    </Field>
  );
}
