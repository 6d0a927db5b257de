import type { FaultBody } from '../../src-shared/faults';
import { describeFault, type FaultWords } from './fault-words';

interface FaultMessageProps {
  fault: FaultBody;
  /** Offered as a "Try again" button when the failed action can simply be repeated. */
  onRetry?: () => void;
  compact?: boolean;
}

/** Shows a fault in plain words, with its errCode for reference. */
export function FaultMessage({ fault, onRetry, compact = false }: FaultMessageProps) {
  const words = describeFault(fault);
  return (
    <div className={compact ? 'fault fault--compact' : 'fault'} role="alert" data-testid="fault-message">
      <div className="fault__body">
        <p className="fault__headline">{words.headline}</p>
        {words.detail && <p className="fault__detail">{words.detail}</p>}
        {words.path && (
          <p className="fault__detail">
            Field: <code>{words.path}</code>
          </p>
        )}
        <FaultChildren items={words.children} />
        <p className="fault__meta">
          <code data-testid="fault-errcode">{words.errCode}</code>
          {words.cause && (
            <>
              {' → '}
              <code>{words.cause}</code>
            </>
          )}
          {words.status > 0 && <span className="fault__status">HTTP {words.status}</span>}
        </p>
      </div>
      {onRetry && (
        <button type="button" className="button button--secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

function FaultChildren({ items }: { items: FaultWords[] }) {
  if (items.length === 0) return null;
  return (
    <ul className="fault__children">
      {items.map((child, index) => (
        <li key={`${child.errCode}-${index}`}>
          {child.path && <code>{child.path}</code>} {child.detail ?? child.headline} <code>{child.errCode}</code>
        </li>
      ))}
    </ul>
  );
}
