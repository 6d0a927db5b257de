/**
 * The Token lab's state in the URL hash. Only what is not secret: the account, the app and the
 * pane. Tokens themselves are never written to the URL (or to storage): they live in memory.
 *
 *   #/tokens?pane=mint&account=<_id>&app=<appKey>
 *
 * Trust boundary: the hash is user input; values of the wrong shape are dropped.
 */
import type { ScreenRoute } from '../../routing/route';
const OBJECT_ID = /^[0-9a-f]{24}$/;
const APP_KEY = /^[A-Za-z0-9]{1,64}$/;

export const TOKEN_PANES = ['mint', 'decode', 'verify'] as const;
export type TokenPane = (typeof TOKEN_PANES)[number];

export interface TokensState {
  pane: TokenPane;
  /** The `_id` of the account tokens are minted for and listed of. */
  account?: string;
  /** The key of the issuing app. */
  app?: string;
}

declare module '../../routing/route' {
  interface ScreenStates {
    tokens: TokensState;
  }
}

export type TokensRoute = ScreenRoute<'tokens'>;

export function parseTokensParams(params: URLSearchParams): TokensState {
  const pane = params.get('pane');
  const state: TokensState = {
    pane: (TOKEN_PANES as readonly string[]).includes(pane ?? '') ? (pane as TokenPane) : 'mint',
  };
  const account = params.get('account')?.toLowerCase();
  if (account !== undefined && OBJECT_ID.test(account)) state.account = account;
  const app = params.get('app');
  if (app !== null && APP_KEY.test(app)) state.app = app;
  return state;
}

export function writeTokensParams(state: TokensState, params: URLSearchParams): void {
  params.set('pane', state.pane);
  if (state.account !== undefined) params.set('account', state.account);
  if (state.app !== undefined) params.set('app', state.app);
}
