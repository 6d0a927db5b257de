/**
 * The signed-request composer in the URL — never the secret, which stays in component state:
 *
 *   #/signed-requests?app=<app key>&method=GET&path=/accounts/me&as=<account id or email>&body=…
 *
 * Trust boundary: hash input, shape-checked only; the path is resolved and signed by signing.ts.
 */
import { SIGNED_METHODS } from '../../api/signing';
import type { HttpMethod } from '../../api/http';
import type { ScreenRoute } from '../../routing/route';

export interface SignedRequestState {
  app?: string;
  method: HttpMethod;
  path: string;
  body: string;
  /** Principal override (`Service-Client-Account`). */
  as: string;
}

declare module '../../routing/route' {
  interface ScreenStates {
    'signed-requests': SignedRequestState;
  }
}

export type SignedRequestsRoute = ScreenRoute<'signed-requests'>;

const APP_KEY = /^[A-Za-z0-9]{1,64}$/;
const MAX_TEXT = 20_000;

export const DEFAULT_SIGNED_STATE: SignedRequestState = { method: 'GET', path: '/accounts/me', body: '', as: '' };

export function parseSignedParams(params: URLSearchParams): SignedRequestState {
  const state: SignedRequestState = { ...DEFAULT_SIGNED_STATE };
  const app = params.get('app');
  if (app !== null && APP_KEY.test(app)) state.app = app;
  const method = params.get('method');
  if (method !== null && (SIGNED_METHODS as readonly string[]).includes(method)) state.method = method as HttpMethod;
  const path = params.get('path');
  if (path !== null && path.length <= 2000) state.path = path;
  const body = params.get('body');
  if (body !== null && body.length <= MAX_TEXT) state.body = body;
  const as = params.get('as');
  if (as !== null && as.length <= 254) state.as = as;
  return state;
}

export function writeSignedParams(state: SignedRequestState, params: URLSearchParams): void {
  if (state.app) params.set('app', state.app);
  params.set('method', state.method);
  params.set('path', state.path);
  if (state.body !== '') params.set('body', state.body);
  if (state.as !== '') params.set('as', state.as);
}
