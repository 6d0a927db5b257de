import type { ScopeSchemaType } from '../../../src-shared/scopes';
import { describeChain } from '../../components/chain-segments';
import { Field } from '../../components/Field';

/** The spec's examples (docs/scopes.md#scope-chains): three valid chains, two invalid ones. */
const EXAMPLES = [
  'object.read.account.*.name',
  'script.execute',
  'view.execute.c_my_view',
  'object.read.account.name',
  'deployment.create',
];

/** Type a chain; see it segment by segment, or the parser's reason with the spot highlighted. */
export function ChainParser({
  chain,
  types,
  onChange,
}: {
  chain: string;
  /** The org's object types: a chain naming what the org lacks is shown as granting nothing. */
  types?: readonly ScopeSchemaType[] | undefined;
  onChange: (chain: string) => void;
}) {
  const view = chain === '' ? null : describeChain(chain, types);
  return (
    <div className="panel" data-testid="chain-parser">
      <Field label="Parse a chain" labelClassName="panel__title">
        <input
          className="input input--mono"
          data-testid="chain-input"
          spellCheck={false}
          autoComplete="off"
          value={chain}
          aria-invalid={view !== null && !view.ok ? true : undefined}
          aria-describedby="chain-result"
          onChange={(e) => onChange(e.target.value)}
        />
      </Field>
      <div className="example-chips">
        Examples:
        {EXAMPLES.map((example) => (
          <button
            key={example}
            type="button"
            className="button button--ghost button--small"
            onClick={() => onChange(example)}
          >
            {example}
          </button>
        ))}
      </div>
      <div id="chain-result" aria-live="polite">
        {view === null && (
          <p className="note" data-testid="chain-empty">
            Type a chain, or pick an example.
          </p>
        )}
        {view?.ok && (
          <div className="chain-ok" data-testid="chain-valid" data-kind={view.kind}>
            <div className="segments" data-testid="chain-segments">
              {view.segments.map((segment, index) => (
                <SegmentBox key={segment.offset} segment={segment} first={index === 0} />
              ))}
            </div>
            <p data-testid="chain-summary">{view.summary}</p>
          </div>
        )}
        {view && !view.ok && (
          <div className="chain-error" role="alert" data-testid="chain-error">
            <code className="chain-mark">
              {view.before}
              <mark className="chain-mark__bad" data-testid="chain-error-mark">
                {view.mark}
              </mark>
              {view.after}
            </code>
            <p>
              <strong>Invalid at character {view.position + 1}</strong> (segment {view.segment + 1}):{' '}
              <span data-testid="chain-error-reason">{view.reason}</span>
            </p>
          </div>
        )}
      </div>
    </div>
  );
}

function SegmentBox({ segment, first }: { segment: { text: string; role: string; meaning: string }; first: boolean }) {
  return (
    <>
      {!first && (
        <span className="segment-dot" aria-hidden="true">
          .
        </span>
      )}
      <span className="segment" data-testid="chain-segment" data-role={segment.role}>
        <span className="segment__role">{segment.role}</span>
        <span className="segment__text">{segment.text === '' ? '(empty)' : segment.text}</span>
        <span className="segment__meaning">{segment.meaning}</span>
      </span>
    </>
  );
}
