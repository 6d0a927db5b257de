import { UtcTime } from '../../components/UtcTime';
import type { SentRequest } from './sent-history';

/** The requests sent from this window, newest first; Load puts one back in the form (not the secret). */
export function SentHistory({
  entries,
  onLoad,
  onClear,
}: {
  entries: SentRequest[];
  onLoad: (entry: SentRequest) => void;
  onClear: () => void;
}) {
  return (
    <section className="panel" aria-labelledby="signed-history-title" data-testid="signed-history">
      <div className="access-toolbar">
        <p className="panel__title" id="signed-history-title">
          Sent from this window
        </p>
        {entries.length > 0 && (
          <button type="button" className="button button--ghost button--small" onClick={onClear}>
            Clear
          </button>
        )}
      </div>
      {entries.length === 0 ? (
        <p className="note">Nothing sent yet. Requests are kept in this window’s memory only, never saved.</p>
      ) : (
        <ol className="sent-history">
          {entries.map((entry) => (
            <li key={entry.id} data-testid="signed-history-item" data-status={entry.status ?? 'failed'}>
              <span
                className={
                  entry.status !== undefined && entry.status < 300
                    ? 'status-chip status-chip--ok'
                    : 'status-chip status-chip--bad'
                }
              >
                {entry.status ?? '—'}
              </span>
              <code className="sent-history__request" title={`${entry.method} ${entry.path}`}>
                {entry.method} {entry.path}
              </code>
              <span className="note">
                <UtcTime iso={new Date(entry.at).toISOString()} seconds />
              </span>
              <button
                type="button"
                className="button button--secondary button--small"
                data-testid="signed-history-load"
                onClick={() => onLoad(entry)}
              >
                Load
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
