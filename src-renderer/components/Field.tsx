import { useId, type ReactNode } from 'react';

/** Ids a control placed by a render function needs: its own and the note (hint or error) it is described by. */
export type FieldControl = (id: string, describedBy: string | undefined) => ReactNode;

interface FieldProps {
  /** The visible label text (and any `FieldType` note beside it). */
  label: ReactNode;
  /**
   * The control. As an element it sits inside the `<label>` (no id wiring needed); as a function
   * it gets an id for `htmlFor` and the id of the hint/error for `aria-describedby` — for
   * controls that are not a single input (a group, a picker) or need the note announced.
   */
  children: ReactNode | FieldControl;
  /**
   * The content is no form control (a read-only value, a row of buttons, a copied command): the
   * field is a `<div>` with a plain caption, since a `<label>` around it would label nothing.
   */
  display?: boolean;
  /** Spans the whole form row. */
  wide?: boolean;
  /** Marks the field invalid (red frame); the message itself goes in `error`. */
  invalid?: boolean;
  hint?: ReactNode;
  error?: ReactNode;
  /** Extra classes after `field` (layout of one screen). */
  className?: string;
  /** Extra classes after `field__label` (a label that doubles as a panel title). */
  labelClassName?: string;
  /** The control's id when something outside the form points at it; otherwise one is made up. */
  id?: string;
  testId?: string;
  hintTestId?: string;
  errorTestId?: string;
}

const shown = (node: ReactNode) => node !== undefined && node !== null && node !== false && node !== '';

const join = (...classes: (string | false | null | undefined)[]) => classes.filter(Boolean).join(' ');

/**
 * A form field: label, control, hint and error, with the `field…` classes the console's CSS
 * styles — written once instead of by hand in every form.
 */
export function Field(props: FieldProps) {
  const { label, children, wide, invalid, hint, error, className, testId } = props;
  const madeId = useId();
  const id = props.id ?? madeId;
  const classes = join('field', wide && 'field--wide', (invalid || shown(error)) && 'field--invalid', className);
  const labelClasses = join('field__label', props.labelClassName);
  if (typeof children === 'function') {
    const noteId = `${id}-note`;
    const hasNote = shown(error) || shown(hint);
    return (
      <div className={classes} data-testid={testId}>
        <label className={labelClasses} htmlFor={id}>
          {label}
        </label>
        {children(id, hasNote ? noteId : undefined)}
        {shown(error) ? (
          <FieldError id={noteId} testId={props.errorTestId}>
            {error}
          </FieldError>
        ) : (
          shown(hint) && (
            <FieldHint as="p" id={noteId} testId={props.hintTestId}>
              {hint}
            </FieldHint>
          )
        )}
      </div>
    );
  }
  const Wrapper = props.display ? 'div' : 'label';
  return (
    <Wrapper className={classes} data-testid={testId}>
      <span className={labelClasses}>{label}</span>
      {children}
      {shown(hint) && (
        <FieldHint as="span" testId={props.hintTestId}>
          {hint}
        </FieldHint>
      )}
      {shown(error) && (
        <FieldError as="span" testId={props.errorTestId}>
          {error}
        </FieldError>
      )}
    </Wrapper>
  );
}

interface NoteProps {
  children: ReactNode;
  /** `p` on its own line (the default), `span` inside a label or a row. */
  as?: 'p' | 'span';
  id?: string | undefined;
  testId?: string | undefined;
}

interface FieldErrorProps extends NoteProps {
  /** Announce it when it appears (a form-level refusal after a submit), not only style it. */
  alert?: boolean;
}

/**
 * An error in the field style that is not tied to one labelled control: a form's summary of a
 * refusal, a row's problem, an error beside a radio button.
 */
export function FieldError({ children, as: Tag = 'p', alert, id, testId }: FieldErrorProps) {
  return (
    <Tag className="field__error" id={id} role={alert ? 'alert' : undefined} data-testid={testId}>
      {children}
    </Tag>
  );
}

/** A hint in the field style, for a note added to a field's content rather than given as `hint`. */
export function FieldHint({ children, as: Tag = 'span', id, testId }: NoteProps) {
  return (
    <Tag className="field__hint" id={id} data-testid={testId}>
      {children}
    </Tag>
  );
}

/** The small note after a label saying what the value is ("JSON · script.arguments"). */
export function FieldType({ children }: { children: ReactNode }) {
  return <span className="field__type">{children}</span>;
}

/** A group of controls (radio buttons) under a legend in the field label's style. */
export function FieldSet({
  legend,
  className,
  testId,
  children,
}: {
  legend: ReactNode;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className={className} data-testid={testId}>
      <legend className="field__label">{legend}</legend>
      {children}
    </fieldset>
  );
}
