/**
 * The desktop app's connections bridge (src-main/shell/preload.ts), when there is one. In the
 * browser — the headless service's own console — `window.serviceDesktop` does not exist, nothing
 * here shows, and the console talks to the service that served it, as always.
 */
import type { QueryClient } from '@tanstack/react-query';
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
