/**
 * Saved connections to other instances of this service (issue #18 item 14): the contract between
 * the desktop shell's main process (which keeps the list and the secrets) and the console (which
 * sees only what is below). One spelling of the IPC channel names for the preload and main.
 *
 * A secret travels in one direction only: from the console's form into main (`save`). No channel
 * ever answers with one; `ConnectionInfo` has no field that could hold it.
 */

/** How the gateway authenticates to the remote service. */
export const CREDENTIAL_KINDS = ['session', 'token', 'signing'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** What the console may see of a saved connection (no secret, not even its length). */
export interface ConnectionInfo {
  id: string;
  name: string;
  /** Origin of the remote service, e.g. `http://10.0.0.5:7788` (no path, query or credentials). */
  url: string;
  kind: CredentialKind;
  /** Signing: the app key (public: it is sent on every request). */
  appKey?: string;
  /** Signing: account id or email sent as the principal override, if any. */
  principal?: string;
  /** Whether a secret is stored (token or signing); its value never leaves main. */
  hasSecret: boolean;
}

/** The console's form: `secret` is the token (token) or the app's API secret (signing). */
export interface ConnectionDraft {
  /** Present to edit a saved connection; an absent secret then keeps the stored one. */
  id?: string;
  name: string;
  url: string;
  kind: CredentialKind;
  appKey?: string;
  principal?: string;
  secret?: string;
}

/**
 * The connection the console is talking to now (the desktop app starts on the one active when it
 * was last changed); `local` is this app's own service, with the
 * address other clients on this machine reach it at (what a copied URL or curl command must name:
 * the console's own origin is the gateway, which answers only this window).
 */
export type ActiveConnection =
  | {
      local: true;
      url: string;
      /** Why the connection remembered from the last start could not be restored, if it could not. */
      notice?: string;
    }
  | { local: false; connection: ConnectionInfo };

export const CONNECTION_CHANNELS = {
  list: 'connections:list',
  save: 'connections:save',
  remove: 'connections:remove',
  activate: 'connections:activate',
  activateLocal: 'connections:activate-local',
  active: 'connections:active',
} as const;
export type ConnectionChannel = (typeof CONNECTION_CHANNELS)[keyof typeof CONNECTION_CHANNELS];

/** What `window.serviceDesktop.connections` offers; the preload implements it over IPC. */
export interface ConnectionsBridge {
  list(): Promise<ConnectionInfo[]>;
  save(draft: ConnectionDraft): Promise<ConnectionInfo>;
  remove(id: string): Promise<void>;
  activate(id: string): Promise<ActiveConnection>;
  activateLocal(): Promise<ActiveConnection>;
  active(): Promise<ActiveConnection>;
}
