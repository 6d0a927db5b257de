import type { ScopeSchemaType } from '../../src-shared/scopes';
import { describeChain } from './chain-segments';

/** A chain as written, with the parser's problem spot highlighted (nothing marked when valid). */
export function ChainMark({
  chain,
  testId,
  types,
}: {
  chain: string;
  testId?: string;
  types?: readonly ScopeSchemaType[] | undefined;
}) {
  const view = describeChain(chain, types);
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

/**
 * Live validation of a chain list: one line per chain, valid or the reason it is not. Given the
 * org's object types, chains naming what the org lacks are marked too (a ✓ means it can grant).
 */
export function ChainChecks({
  chains,
  testId,
  types,
}: {
  chains: readonly string[];
  testId: string;
  types?: readonly ScopeSchemaType[] | undefined;
}) {
  if (chains.length === 0) return null;
  return (
    <ul className="chain-checks" data-testid={testId}>
      {chains.map((chain, index) => {
        const view = describeChain(chain, types);
        return (
          <li key={`${index}-${chain}`} data-testid={`${testId}-item`} data-valid={view.ok}>
            <span
              className={view.ok ? 'chain-checks__icon--ok' : 'chain-checks__icon--bad'}
              aria-label={view.ok ? 'valid' : 'invalid'}
            >
              {view.ok ? '✓' : '✗'}
            </span>
            <ChainMark chain={chain} types={types} />
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
