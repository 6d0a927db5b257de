import type { Pair } from './request-parts';

/** Name/value rows (query parameters, headers): add, edit, remove. */
export function PairEditor({
  legend,
  rows,
  onChange,
  testId,
  namePlaceholder,
  valuePlaceholder,
  note,
}: {
  legend: string;
  rows: Pair[];
  onChange: (rows: Pair[]) => void;
  testId: string;
  namePlaceholder: string;
  valuePlaceholder: string;
  note?: string;
}) {
  const update = (index: number, patch: Partial<Pair>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="pairs field--wide" data-testid={testId}>
      <legend className="field__label">{legend}</legend>
      {rows.map((row, index) => (
        <div className="pairs__row" key={index} data-testid={`${testId}-row`}>
          <input
            className="input input--mono"
            aria-label={`${legend}: name ${index + 1}`}
            data-testid={`${testId}-name`}
            spellCheck={false}
            autoComplete="off"
            placeholder={namePlaceholder}
            value={row.name}
            onChange={(e) => update(index, { name: e.target.value })}
          />
          <input
            className="input input--mono"
            aria-label={`${legend}: value ${index + 1}`}
            data-testid={`${testId}-value`}
            spellCheck={false}
            autoComplete="off"
            placeholder={valuePlaceholder}
            value={row.value}
            onChange={(e) => update(index, { value: e.target.value })}
          />
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label={`Remove ${legend.toLowerCase()} ${index + 1}`}
            data-testid={`${testId}-remove`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            ×
          </button>
        </div>
      ))}
      <div className="pairs__foot">
        <button
          type="button"
          className="button button--ghost button--small"
          data-testid={`${testId}-add`}
          disabled={rows.length >= 50}
          onClick={() => onChange([...rows, { name: '', value: '' }])}
        >
          + Add
        </button>
        {note && <span className="note">{note}</span>}
      </div>
    </fieldset>
  );
}
