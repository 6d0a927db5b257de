import { useMemo } from 'react';
import type { Schema } from '../../api/schemas';
import { schemaDef } from '../../api/schemas';
import { FieldError } from '../../components/Field';
import type { VariableForm } from './view-form';
import { variableHints } from './variable-hints';

interface ViewVariableFieldsProps {
  /** The components' variables, in first-seen order. */
  variables: string[];
  values: Record<string, VariableForm>;
  onChange: (name: string, key: keyof VariableForm, value: string) => void;
  /** The query components as they would be saved (for the derived hints shown as placeholders). */
  query: { name: string; value: string }[];
  schema: Schema | undefined;
  /** The service's fault on save when it names one variable. */
  fault?: { name: string; message: string } | undefined;
  /** The service's fault on save when it names the variables but no one of them. */
  error?: string | undefined;
}

/**
 * Each variable the where and sort use, with its default (the argument as a caller types it:
 * `/^Sm/`, which the service checks on save) and a description for the run form. The placeholder
 * suggests the shape the view's use of the variable wants (variable-hints.ts).
 */
export function ViewVariableFields({
  variables,
  values,
  onChange,
  query,
  schema,
  fault,
  error,
}: ViewVariableFieldsProps) {
  const hints = useMemo(() => variableHints(query, schema ? schemaDef(schema) : undefined), [query, schema]);
  if (variables.length === 0) {
    return (
      <p className="note" data-testid="view-variables">
        Variables: none. Write <code>{'"{{name}}"'}</code> in where or sort to take an argument.
      </p>
    );
  }
  return (
    <fieldset className="view-editor__variables" data-testid="view-variables">
      <legend>Variables</legend>
      <div className="view-editor__var-row view-editor__var-head" aria-hidden="true">
        <span>Name</span>
        <span>Default (as typed in the URL)</span>
        <span>Description (shown on the run form)</span>
      </div>
      {variables.map((name) => {
        const value = values[name] ?? { defaultValue: '', description: '' };
        const hint = hints.get(name);
        const errorId = `view-variable-error-${name}`;
        const faulted = fault?.name === name;
        return (
          <div key={name} className="view-editor__var" data-testid="view-variable" data-name={name}>
            <div className="view-editor__var-row">
              <code className="view-chip">{name}</code>
              <input
                className="input input--mono"
                data-testid="view-variable-default"
                aria-label={`${name}: default`}
                aria-invalid={faulted || undefined}
                aria-describedby={faulted ? errorId : undefined}
                spellCheck={false}
                placeholder={hint?.example ? `e.g. ${hint.example}` : 'none: required'}
                value={value.defaultValue}
                onChange={(e) => onChange(name, 'defaultValue', e.target.value)}
              />
              <textarea
                className="input"
                rows={1}
                data-testid="view-variable-description"
                aria-label={`${name}: description`}
                maxLength={500}
                placeholder={hint?.hint ?? 'What to type, in words'}
                value={value.description}
                onChange={(e) => onChange(name, 'description', e.target.value)}
              />
            </div>
            {faulted && (
              <FieldError id={errorId} testId="view-variable-error">
                {fault.message}
              </FieldError>
            )}
          </div>
        );
      })}
      {error && <FieldError testId="view-error-variables">{error}</FieldError>}
    </fieldset>
  );
}
