import { queryOptions } from '@tanstack/react-query';
import { ApiError } from './api-error';
import { sendJson, type FetchLike } from './http';
import type { OrgClient } from './org-client';
import type { MintRequest, PublicJwk, StoredToken } from '../../src-shared/contracts/tokens';
import { SERVER_TIME_HEADER } from '../../src-shared/contracts/http';
import type { Account, ListEnvelope, ResultEnvelope } from './types';

export type { MintRequest, StoredToken };

/**
 * Query keys. Only non-secret data is cached here (token ids and counters); minted tokens are
 * never put in the query cache.
 */
export const tokenKeys = {
  stored: (org: string, account: string, app: string) => ['org', org, 'tokens', account, app] as const,
};

const accountPath = (id: string) => `accounts/${encodeURIComponent(id)}/tokens`;

export async function mintToken(orgClient: OrgClient, accountId: string, request: MintRequest): Promise<string> {
  return (await orgClient.post<ResultEnvelope<string>>(accountPath(accountId), request)).data;
}

export async function listStoredTokens(
  orgClient: OrgClient,
  accountId: string,
  appKey: string,
  signal?: AbortSignal,
): Promise<StoredToken[]> {
  return (await orgClient.get<ListEnvelope<StoredToken>>(accountPath(accountId), { query: { app: appKey }, signal }))
    .data;
}

export function storedTokensQuery(orgClient: OrgClient, accountId: string, appKey: string) {
  return queryOptions({
    queryKey: tokenKeys.stored(orgClient.org, accountId, appKey),
    queryFn: ({ signal }) => listStoredTokens(orgClient, accountId, appKey, signal),
    staleTime: 0,
  });
}

export async function revokeToken(orgClient: OrgClient, accountId: string, jti: string): Promise<void> {
  await orgClient.request('DELETE', `${accountPath(accountId)}/${encodeURIComponent(jti)}`);
}

/** Answers how many tokens were revoked. */
export async function revokeAllTokens(orgClient: OrgClient, accountId: string, appKey: string): Promise<number> {
  return (await orgClient.request<ResultEnvelope<number>>('DELETE', accountPath(accountId), { query: { app: appKey } }))
    .data;
}

/** A fetch that never sends the console's session cookie: a token must answer for itself. */
const withoutCookies: FetchLike = (input, init) => fetch(input, { ...init, credentials: 'omit' });

/** The service's clock from `Service-Server-Time` (Unix ms), or the local clock when absent. */
function serverTimeOf(headers: Headers): { serverTime: number; fromServer: boolean } {
  const raw = headers.get(SERVER_TIME_HEADER);
  const value = raw !== null && /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  return Number.isFinite(value)
    ? { serverTime: value, fromServer: true }
    : { serverTime: Date.now(), fromServer: false };
}

export interface PublishedJwks {
  keys: PublicJwk[];
  /** Service-Server-Time of the answer, so nbf/exp are judged by the service's clock. */
  serverTime: number;
  fromServer: boolean;
}

/** `GET /auth/certs/jwk` without credentials, as any verifier would fetch it. */
export async function fetchPublishedJwks(org: string): Promise<PublishedJwks> {
  const { data, headers } = await sendJson<{ keys: PublicJwk[] }>(withoutCookies, {
    method: 'GET',
    url: `/${encodeURIComponent(org)}/v2/auth/certs/jwk`,
  });
  return { keys: data.keys, ...serverTimeOf(headers) };
}

export type TryResult = { ok: true; account: Account } | { ok: false; error: ApiError };

/**
 * "Try it": `GET /accounts/me` with the token as the only credential. A limited-use token spends
 * one use. The answer is the token's subject, or the fault that refused the token.
 */
export async function tryToken(org: string, jwt: string): Promise<TryResult> {
  try {
    const { data } = await sendJson<Account>(withoutCookies, {
      method: 'GET',
      url: `/${encodeURIComponent(org)}/v2/accounts/me`,
      headers: { Authorization: `Bearer ${jwt}` },
    });
    return { ok: true, account: data };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error };
    throw error;
  }
}
