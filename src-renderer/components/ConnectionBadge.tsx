import { useQuery, useQueryClient } from '@tanstack/react-query';
import '../styles/connections.css';
import type { ActiveConnection } from '../../src-shared/contracts/connections';
import { connectionKeys, connectionsBridge, hostOf, switchConnection } from '../api/desktop-connections';

/**
 * Which service the desktop console is talking to, in the header: "This computer" or the saved
 * connection's name and host, linking to the Connections screen. Absent without the desktop
 * bridge (the headless service's console shows nothing new).
 *
 * `banner`: on screens without the header (login, first run, a failed start) a thin bar says the
 * same and offers the way back to this computer, so a remote's login screen is never a dead end.
 */
export function ConnectionBadge({ variant = 'header' }: { variant?: 'header' | 'banner' }) {
  const bridge = connectionsBridge();
  const queryClient = useQueryClient();
  const active = useQuery({
    queryKey: connectionKeys.active,
    queryFn: () => bridge!.active(),
    enabled: bridge !== undefined,
    staleTime: Infinity,
  });
  if (!bridge || !active.data) return null;
  const remote = active.data.local ? undefined : active.data.connection;
  const notice = active.data.local ? active.data.notice : undefined;
  // Seen once is enough: the service side has already forgotten the connection it could not restore.
  const dismiss = () => {
    if (!active.data?.local) return;
    const quiet: ActiveConnection = { local: true, url: active.data.url };
    queryClient.setQueryData(connectionKeys.active, quiet);
  };
  if (variant === 'banner') {
    if (notice) {
      return (
        <div className="connection-banner" role="status" data-testid="connection-notice">
          <span>{notice}</span>
          <button type="button" className="button button--ghost button--small" onClick={dismiss}>
            Dismiss
          </button>
        </div>
      );
    }
    if (!remote) return null;
    return (
      <div className="connection-banner" role="status" data-testid="connection-banner">
        <span>
          Connected to <strong>{remote.name}</strong> <code>{hostOf(remote.url)}</code>
        </span>
        <button
          type="button"
          className="button button--ghost button--small"
          data-testid="connection-banner-local"
          onClick={() => void switchConnection(queryClient, () => bridge.activateLocal())}
        >
          Back to this computer
        </button>
      </div>
    );
  }
  return (
    <a
      className={remote ? 'connection-badge connection-badge--remote' : 'connection-badge'}
      href="#/connections"
      data-testid="connection-badge"
      title={
        remote ? `Connected to ${remote.url} (${remote.kind})` : (notice ?? 'Connected to the service on this computer')
      }
    >
      <span className="connection-badge__dot" aria-hidden="true" />
      <span className="connection-badge__name">{remote ? remote.name : 'This computer'}</span>
      {remote && <code className="connection-badge__host">{hostOf(remote.url)}</code>}
      {notice && (
        <span className="connection-badge__notice" data-testid="connection-badge-notice">
          reconnect failed
        </span>
      )}
    </a>
  );
}
