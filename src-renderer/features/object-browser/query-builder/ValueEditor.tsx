import { useState } from 'react';
import { compileRegex, splitRegexLiteral } from '../../../../src-shared/query';
import type { JsonValue } from './builder-state';
import { isListOperator, type BuilderOperator, type QueryablePath } from './operators';
import { DateInput } from './DateInput';
import { isPrefixOperator } from './starts-with';
import { listItemDefault } from './values';

interface ValueEditorProps {
  field: QueryablePath | undefined;
  op: BuilderOperator;
  value: JsonValue;
  onChange: (value: JsonValue) => void;
  label: string;
}

/** The operand editor that fits the operator and the property's type. */
export function ValueEditor({ field, op, value, onChange, label }: ValueEditorProps) {
  const type = field?.type ?? 'String';
  if (op === '$exists') {
    return (
      <select
        className="select qb-value"
        aria-label={label}
        data-testid="qb-value"
        value={value === false ? 'false' : 'true'}
        onChange={(e) => onChange(e.target.value === 'true')}
      >
        <option value="true">true (present)</option>
        <option value="false">false (missing)</option>
      </select>
    );
  }
  if (op === '$size') return <NumberInput value={value} onChange={onChange} label={label} integer />;
  if (op === '$elemMatch') return <JsonInput value={value} onChange={onChange} label={label} />;
  if (op === '$regex') return <RegexInput value={value} onChange={onChange} label={label} />;
  if (isPrefixOperator(op)) {
    return (
      <input
        className="input input--mono qb-value"
        aria-label={`${label}: the text it starts with`}
        data-testid="qb-value"
        value={typeof value === 'string' ? value : ''}
        placeholder="text it starts with"
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  if (isListOperator(op)) return <ListEditor type={type} value={value} onChange={onChange} label={label} />;
  return <ScalarInput type={type} value={value} onChange={onChange} label={label} testId="qb-value" />;
}

interface ScalarProps {
  type: string;
  value: JsonValue;
  onChange: (value: JsonValue) => void;
  label: string;
  testId: string;
}

export function ScalarInput({ type, value, onChange, label, testId }: ScalarProps) {
  switch (type) {
    case 'Boolean':
      return (
        <select
          className="select qb-value"
          aria-label={label}
          data-testid={testId}
          value={value === null ? 'null' : String(value === true)}
          onChange={(e) => onChange(e.target.value === 'null' ? null : e.target.value === 'true')}
        >
          <option value="true">true</option>
          <option value="false">false</option>
          <option value="null">null (missing)</option>
        </select>
      );
    case 'Number':
    case 'Integer':
      return (
        <NumberInput value={value} onChange={onChange} label={label} integer={type === 'Integer'} testId={testId} />
      );
    case 'Date':
      return <DateInput value={value} onChange={onChange} label={label} testId={testId} />;
    case 'ObjectId':
    case 'Reference':
      return <IdInput value={value} onChange={onChange} label={label} testId={testId} />;
    default:
      return (
        <input
          className="input input--mono qb-value"
          aria-label={label}
          data-testid={testId}
          value={typeof value === 'string' ? value : value === null ? '' : JSON.stringify(value)}
          placeholder={value === null ? 'null (missing)' : 'text'}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}

function NumberInput({
  value,
  onChange,
  label,
  integer,
  testId = 'qb-value',
}: {
  value: JsonValue;
  onChange: (value: JsonValue) => void;
  label: string;
  integer: boolean;
  testId?: string;
}) {
  const text = value === null ? '' : String(value);
  const pattern = integer ? /^-?\d+$/ : /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
  return (
    <input
      className="input input--mono qb-value"
      aria-label={label}
      data-testid={testId}
      inputMode={integer ? 'numeric' : 'decimal'}
      value={text}
      placeholder={value === null ? 'null (missing)' : integer ? 'whole number' : 'number'}
      // A number when it reads as one; otherwise the text, which the live check then flags.
      onChange={(e) => onChange(pattern.test(e.target.value.trim()) ? Number(e.target.value) : e.target.value)}
    />
  );
}

const OBJECT_ID = /^[0-9a-f]{24}$/i;

function IdInput({ value, onChange, label, testId }: Omit<ScalarProps, 'type'>) {
  const text = typeof value === 'string' ? value : '';
  const invalid = text !== '' && !OBJECT_ID.test(text);
  return (
    <span className="qb-field">
      <input
        className={invalid ? 'input input--mono qb-value input--invalid' : 'input input--mono qb-value'}
        aria-label={label}
        aria-invalid={invalid || undefined}
        data-testid={testId}
        value={text}
        maxLength={24}
        placeholder={value === null ? 'null (missing)' : '24 hex characters'}
        onChange={(e) => onChange(e.target.value.trim())}
      />
      {invalid && <span className="qb-inline-error">An id is 24 hex characters ({text.length} now).</span>}
    </span>
  );
}

function RegexInput({ value, onChange, label }: { value: JsonValue; onChange: (v: JsonValue) => void; label: string }) {
  const text = typeof value === 'string' ? value : '';
  let problem: string | null = null;
  if (text !== '') {
    const literal = splitRegexLiteral(text);
    if (typeof literal === 'string') problem = literal;
    else {
      try {
        compileRegex(literal);
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
    }
  }
  return (
    <span className="qb-field">
      <input
        className={problem ? 'input input--mono qb-value input--invalid' : 'input input--mono qb-value'}
        aria-label={`${label}, written /pattern/flags`}
        aria-invalid={problem ? true : undefined}
        data-testid="qb-value"
        value={text}
        placeholder="/^pattern/i"
        onChange={(e) => onChange(e.target.value)}
      />
      {problem && <span className="qb-inline-error">{problem}</span>}
    </span>
  );
}

function ListEditor({
  type,
  value,
  onChange,
  label,
}: {
  type: string;
  value: JsonValue;
  onChange: (value: JsonValue) => void;
  label: string;
}) {
  const items = Array.isArray(value) ? value : [];
  return (
    <div className="qb-list" data-testid="qb-value-list" role="group" aria-label={label}>
      {items.map((item, index) => (
        <span className="qb-list__item" key={index}>
          <ScalarInput
            type={type}
            value={item}
            label={`${label} item ${index + 1}`}
            testId="qb-list-item"
            onChange={(next) => onChange(items.map((old, i) => (i === index ? next : old)))}
          />
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label={`Remove item ${index + 1}`}
            onClick={() => onChange(items.filter((_, i) => i !== index))}
          >
            ×
          </button>
        </span>
      ))}
      <button
        type="button"
        className="button button--ghost button--small"
        data-testid="qb-list-add"
        onClick={() => onChange([...items, listItemDefault(type)])}
      >
        + value
      </button>
    </div>
  );
}

/** `$elemMatch` operand: a JSON object, kept as text while it does not parse. */
function JsonInput({ value, onChange, label }: { value: JsonValue; onChange: (v: JsonValue) => void; label: string }) {
  const [text, setText] = useState(() => JSON.stringify(value));
  const [invalid, setInvalid] = useState(false);
  return (
    <span className="qb-field">
      <input
        className={invalid ? 'input input--mono qb-value input--invalid' : 'input input--mono qb-value'}
        aria-label={`${label}, a JSON condition object`}
        data-testid="qb-value"
        value={text}
        placeholder='{"c_study": "x"}'
        onChange={(e) => {
          setText(e.target.value);
          try {
            onChange(JSON.parse(e.target.value) as JsonValue);
            setInvalid(false);
          } catch {
            setInvalid(true);
          }
        }}
      />
      {invalid && <span className="qb-inline-error">Not JSON yet.</span>}
    </span>
  );
}
