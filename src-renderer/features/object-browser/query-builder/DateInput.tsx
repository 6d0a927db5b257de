import { useState } from 'react';
import type { JsonValue } from './builder-state';
import { normaliseIsoDate } from '../../../../src-shared/query/values';
import { dateInputText, dateModeOf, dateValueOf, type DateMode } from './values';

/** The field's text reads as a date the service takes. */
function isWhole(text: string, mode: DateMode): boolean {
  return text !== '' && normaliseIsoDate(dateValueOf(text, mode)) !== undefined;
}

interface DateInputProps {
  value: JsonValue;
  onChange: (value: JsonValue) => void;
  label: string;
  testId: string;
}

/**
 * A date condition's operand, typed with the keyboard or picked (issue 44 item 3). The browser's
 * field reports no value while a part of it is half-typed (a month of "0"), so the condition keeps
 * its last whole date meanwhile, and says so, instead of becoming an invalid one. A date-only
 * choice writes the day (`2024-05-01`, midnight UTC); all times are UTC, as stored.
 */
export function DateInput({ value, onChange, label, testId }: DateInputProps) {
  const [mode, setMode] = useState<DateMode>(() => dateModeOf(value));
  const [text, setText] = useState(() => dateInputText(value, mode));
  // The operand this field last showed or wrote: another one (from outside) resets the field.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setText(dateInputText(value, mode));
  }
  const emit = (next: string) => {
    setSeen(next);
    onChange(next);
  };
  // A year past 9999 (the year part takes more digits) is no date the service stores: not whole.
  const incomplete = !isWhole(text, mode);
  const kept = dateInputText(value, mode);
  return (
    <span className="qb-field">
      <span className="qb-date">
        <input
          type={mode === 'date' ? 'date' : 'datetime-local'}
          // Milliseconds get their own part only when the value has some.
          step={mode === 'date' ? undefined : text.length > 19 ? 0.001 : 1}
          className={
            incomplete
              ? `input input--mono qb-value qb-value--${mode} input--invalid`
              : `input input--mono qb-value qb-value--${mode}`
          }
          // Four-digit years: the year part then moves on to the next part after its fourth digit.
          min={mode === 'date' ? '0001-01-01' : '0001-01-01T00:00'}
          max={mode === 'date' ? '9999-12-31' : '9999-12-31T23:59:59.999'}
          aria-label={`${label} (UTC)`}
          aria-invalid={incomplete || undefined}
          data-testid={testId}
          value={text}
          onChange={(e) => {
            const next = e.target.value;
            setText(next);
            if (isWhole(next, mode)) emit(dateValueOf(next, mode));
          }}
        />
        <select
          className="select qb-date__mode"
          aria-label={`${label}: date only, or date and time`}
          data-testid="qb-date-mode"
          value={mode}
          onChange={(e) => {
            const nextMode = e.target.value as DateMode;
            const nextText = dateInputText(value, nextMode);
            setMode(nextMode);
            setText(nextText);
            if (isWhole(nextText, nextMode)) emit(dateValueOf(nextText, nextMode));
          }}
        >
          <option value="datetime">date, time</option>
          <option value="date">date only</option>
        </select>
        <span className="qb-hint">UTC</span>
      </span>
      {incomplete && (
        <span className="qb-inline-error" role="status" data-testid="qb-date-incomplete">
          {kept === ''
            ? 'Type a whole date.'
            : `Not a whole date yet: the query keeps ${kept.replace('T', ' ')} until it is.`}
        </span>
      )}
    </span>
  );
}
