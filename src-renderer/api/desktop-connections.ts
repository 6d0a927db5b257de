/**
 * The desktop app's connections bridge (src-main/shell/preload.ts), when there is one. In the
 * browser — the headless service's own console — `window.serviceDesktop` does not exist, nothing
 * here shows, and the console talks to the service that served it, as always.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { ActiveConnection, ConnectionsBridge } from '../../src-shared/contracts/connections';

export type {
  ActiveConnection,
  ConnectionDraft,
  ConnectionInfo,
  CredentialKind,
} from '../../src-shared/contracts/connections';

declare global {
  interface Window {
    serviceDesktop?: { connections?: ConnectionsBridge };
  }
}

export function connectionsBridge(): ConnectionsBridge | undefined {
  return typeof window === 'undefined' ? undefined : window.serviceDesktop?.connections;
}

export const connectionKeys = {
  all: ['desktop', 'connections'] as const,
  active: ['desktop', 'connections', 'active'] as const,
};

/**
 * Switches the service the console talks to. Everything cached belongs to the old one (records,
 * sessions, CSRF tokens, drafts): the caches are cleared and the console starts again from its
 * first screen, which then asks the new service who is signed in.
 */
export async function switchConnection(
  queryClient: QueryClient,
  change: () => Promise<ActiveConnection>,
  reload: () => void = () => window.location.assign('/console/'),
): Promise<ActiveConnection> {
  const active = await change();
  queryClient.clear();
  reload();
  return active;
}

/** `10.0.0.5:7788` for `http://10.0.0.5:7788`: the part a person recognises. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The origin a copied URL or curl command names. In the browser it is the page's own (the service
 * served this console). On the desktop the page's origin is the connection gateway, which answers
 * only this window, so a copied command names the service actually answering: the local service's
 * address, or the active connection's URL.
 */
export function useServiceOrigin(): string {
  const bridge = connectionsBridge();
  const active = useQuery({
    queryKey: connectionKeys.active,
    queryFn: () => bridge!.active(),
    enabled: bridge !== undefined,
    staleTime: Infinity,
  });
  const here = typeof window === 'undefined' ? '' : window.location.origin;
  if (!bridge || !active.data) return here;
  return active.data.local ? active.data.url : active.data.connection.url.replace(/\/+$/, '');
}
