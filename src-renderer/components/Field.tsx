import { useId, type ReactNode } from 'react';

/** Ids a control placed by a render function needs: its own and the note (hint or error) it is described by. */
export type FieldControl = (id: string, describedBy: string | undefined) => ReactNode;

interface FieldProps {
  /** The visible label text (and any `field__type` note beside it). */
  label: ReactNode;
  /**
   * The control. As an element it sits inside the `<label>` (no id wiring needed); as a function
   * it gets an id for `htmlFor` and the id of the hint/error for `aria-describedby` — for
   * controls that are not a single input (a group, a picker) or need the note announced.
   */
  children: ReactNode | FieldControl;
  /** Spans the whole form row. */
  wide?: boolean;
  /** Marks the field invalid (red frame); the message itself goes in `error`. */
  invalid?: boolean;
  hint?: ReactNode;
  error?: ReactNode;
  /** Extra classes after `field` (layout of one screen). */
  className?: string;
  testId?: string;
  hintTestId?: string;
  errorTestId?: string;
}

const shown = (node: ReactNode) => node !== undefined && node !== null && node !== false && node !== '';

/**
 * A form field: label, control, hint and error, with the `field…` classes the console's CSS
 * styles — written once instead of by hand in every form.
 */
export function Field(props: FieldProps) {
  const { label, children, wide, invalid, hint, error, className, testId } = props;
  const id = useId();
  const classes = ['field', wide ? 'field--wide' : null, invalid || shown(error) ? 'field--invalid' : null, className]
    .filter(Boolean)
    .join(' ');
  if (typeof children === 'function') {
    const noteId = `${id}-note`;
    const hasNote = shown(error) || shown(hint);
    return (
      <div className={classes} data-testid={testId}>
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        {children(id, hasNote ? noteId : undefined)}
        {shown(error) ? (
          <p className="field__error" id={noteId} data-testid={props.errorTestId}>
            {error}
          </p>
        ) : (
          shown(hint) && (
            <p className="field__hint" id={noteId} data-testid={props.hintTestId}>
              {hint}
            </p>
          )
        )}
      </div>
    );
  }
  return (
    <label className={classes} data-testid={testId}>
      <span className="field__label">{label}</span>
      {children}
      {shown(hint) && (
        <span className="field__hint" data-testid={props.hintTestId}>
          {hint}
        </span>
      )}
      {shown(error) && (
        <span className="field__error" data-testid={props.errorTestId}>
          {error}
        </span>
      )}
    </label>
  );
}
