import { describeChain } from './chain-segments';

/** A chain as written, with the parser's problem spot highlighted (nothing marked when valid). */
export function ChainMark({ chain, testId }: { chain: string; testId?: string }) {
  const view = describeChain(chain);
  if (view.ok) return <code className="chain-mark">{chain}</code>;
  return (
    <code className="chain-mark" data-testid={testId}>
      {view.before}
      <mark className="chain-mark__bad" data-testid={testId ? `${testId}-mark` : undefined}>
        {view.mark}
      </mark>
      {view.after}
    </code>
  );
}

/** Live validation of a chain list: one line per chain, valid or the reason it is not. */
export function ChainChecks({ chains, testId }: { chains: readonly string[]; testId: string }) {
  if (chains.length === 0) return null;
  return (
    <ul className="chain-checks" data-testid={testId}>
      {chains.map((chain, index) => {
        const view = describeChain(chain);
        return (
          <li key={`${index}-${chain}`} data-testid={`${testId}-item`} data-valid={view.ok}>
            <span
              className={view.ok ? 'chain-checks__icon--ok' : 'chain-checks__icon--bad'}
              aria-label={view.ok ? 'valid' : 'invalid'}
            >
              {view.ok ? '✓' : '✗'}
            </span>
            <ChainMark chain={chain} />
            {!view.ok && (
              <span className="chain-checks__reason">
                {view.reason} (at character {view.position + 1})
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
