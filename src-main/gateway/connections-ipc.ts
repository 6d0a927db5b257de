/**
 * What main answers on each connections channel (src-shared/contracts/connections.ts), as plain
 * functions the shell registers with `ipcMain.handle`. Each call first checks that it comes from
 * the console's own origin (the gateway), then validates every argument; nothing answered holds a
 * secret. Tested without Electron.
 */
import {
  CONNECTION_CHANNELS,
  type ActiveConnection,
  type ConnectionChannel,
  type ConnectionInfo,
} from '../../src-shared/contracts/connections.js';
import { parseConnectionDraft, parseConnectionId } from './connection-input.js';
import type { ConnectionsStore } from './connections-store.js';
import type { GatewayTarget } from './gateway.js';

export class IpcRefusedError extends Error {
  override name = 'IpcRefusedError';
}

export interface ConnectionsIpcOptions {
  store: ConnectionsStore;
  /** The gateway's `setTarget`. */
  setTarget: (target: GatewayTarget) => void;
  /** The only origin allowed to call: the console as served by the gateway. */
  consoleOrigin: () => string;
  /** The local service's own address (named in copied URLs while the local connection is active). */
  localOrigin: string;
}

export type ConnectionsHandler = (senderOrigin: string | undefined, ...args: unknown[]) => Promise<unknown>;

export function connectionsHandlers(options: ConnectionsIpcOptions): Record<ConnectionChannel, ConnectionsHandler> {
  const local: Extract<ActiveConnection, { local: true }> = { local: true, url: options.localOrigin };
  let active: ActiveConnection = restoreActive(options, local);

  const guarded =
    (expectedArgs: number, handler: (...args: unknown[]) => unknown): ConnectionsHandler =>
    async (senderOrigin, ...args) => {
      if (senderOrigin === undefined || senderOrigin !== options.consoleOrigin()) {
        throw new IpcRefusedError('Connections can be changed only from the console window.');
      }
      if (args.length !== expectedArgs) throw new IpcRefusedError(`Expected ${expectedArgs} argument(s).`);
      return handler(...args);
    };
  const idOf = (value: unknown): string => {
    const id = parseConnectionId(value);
    if (!id.ok) throw new IpcRefusedError(id.problem);
    return id.value;
  };

  return {
    [CONNECTION_CHANNELS.list]: guarded(0, (): ConnectionInfo[] => options.store.list()),
    [CONNECTION_CHANNELS.save]: guarded(1, (value): ConnectionInfo => {
      const draft = parseConnectionDraft(value);
      if (!draft.ok) throw new IpcRefusedError(draft.problem);
      const saved = options.store.save(draft.value);
      // The active connection changed under the console: show it as saved, talk to it as saved.
      if (!active.local && active.connection.id === saved.id) {
        options.setTarget(options.store.target(saved.id));
        active = { local: false, connection: saved };
      }
      return saved;
    }),
    [CONNECTION_CHANNELS.remove]: guarded(1, (value): void => {
      const id = idOf(value);
      options.store.remove(id); // forgets it as the one to reconnect to, too
      if (!active.local && active.connection.id === id) {
        options.setTarget({ kind: 'local' });
        active = local;
      }
    }),
    [CONNECTION_CHANNELS.activate]: guarded(1, (value): ActiveConnection => {
      const id = idOf(value);
      const target = options.store.target(id);
      const connection = options.store.get(id)!;
      options.setTarget(target);
      options.store.rememberActive(id);
      active = { local: false, connection };
      return active;
    }),
    [CONNECTION_CHANNELS.activateLocal]: guarded(0, (): ActiveConnection => {
      options.setTarget({ kind: 'local' });
      options.store.rememberActive(undefined);
      active = local;
      return active;
    }),
    [CONNECTION_CHANNELS.active]: guarded(0, (): ActiveConnection => active),
  };
}

/**
 * The connection active when the app last changed it, as the start's target: a user who works
 * against a remote keeps working against it after a restart. When it cannot be restored (its
 * secret no longer opens, the OS keychain is unavailable) the app starts on this computer and says
 * why, and forgets it, so the next start does not fail the same way.
 */
function restoreActive(
  options: ConnectionsIpcOptions,
  local: Extract<ActiveConnection, { local: true }>,
): ActiveConnection {
  const id = options.store.activeId();
  if (id === undefined) return local;
  const connection = options.store.get(id)!;
  try {
    options.setTarget(options.store.target(id));
    return { local: false, connection };
  } catch (error) {
    options.store.rememberActive(undefined);
    options.setTarget({ kind: 'local' });
    return {
      ...local,
      notice: `Could not reconnect to "${connection.name}": ${(error as Error).message} Using this computer.`,
    };
  }
}
