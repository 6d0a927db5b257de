import type { ReactNode } from 'react';

interface FieldProps {
  /** The visible label text (and any `field__type` note beside it). */
  label: ReactNode;
  children: ReactNode;
  /** Spans the whole form row. */
  wide?: boolean;
  /** Marks the field invalid (red frame); the message itself goes in `error`. */
  invalid?: boolean;
  hint?: ReactNode;
  error?: ReactNode;
  /** Extra classes after `field` (layout of one screen). */
  className?: string;
  testId?: string;
}

/**
 * A form field whose control sits inside its `<label>` (so no id wiring is needed): the markup
 * and `field…` classes the console's CSS styles, written once instead of by hand in every form.
 */
export function Field({ label, children, wide, invalid, hint, error, className, testId }: FieldProps) {
  const classes = ['field', wide ? 'field--wide' : null, invalid || error ? 'field--invalid' : null, className]
    .filter(Boolean)
    .join(' ');
  return (
    <label className={classes} data-testid={testId}>
      <span className="field__label">{label}</span>
      {children}
      {hint !== undefined && <span className="field__hint">{hint}</span>}
      {error !== undefined && error !== null && error !== false && <span className="field__error">{error}</span>}
    </label>
  );
}
