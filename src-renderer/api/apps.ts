import { queryOptions } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import type { ListEnvelope, ResultEnvelope } from './types';
import {
  SIGNING_ALGS,
  type ApiApp,
  type AppKind,
  type AppSettings,
  type SigningAlg,
} from '../../src-shared/contracts/apps';
import type { PublicJwk, PublicPem } from '../../src-shared/contracts/tokens';

export type { AppKind, AppKeyInfo, AppSettings } from '../../src-shared/contracts/apps';
export type TokenAlg = SigningAlg;
export const TOKEN_ALGS = SIGNING_ALGS;

/** An app as `GET /apps` shows it: `secret` is masked (`••••…` + last 4) except right after create/rotate. */
export type ServiceApp = ApiApp;

/** What one key operation stops, as the service counts it (GET /apps/<key>/rotation-preview). */
export interface OperationEffect {
  /** Whether signed requests made with the current secret are refused afterwards. */
  signedRequestsRefused: boolean;
  /** Live stored (permanent / limited-use) tokens that stop working. */
  tokens: number;
  /** Live sessions that end. */
  sessions: number;
}

export interface RotationPreview {
  /** Rotating the signing secret (signing apps only: `applies`). */
  secret: OperationEffect & { applies: boolean };
  /** Regenerating the RSA pair; ephemeral tokens (not stored, so not counted) stop too. */
  rsa: OperationEffect & { ephemeralTokens: boolean };
}

export type { PublicJwk, PublicPem };

export interface PublishedKeys {
  jwk: PublicJwk[];
  pem: PublicPem[];
}

/** Keys for react-query, under the org's prefix so signing out drops them (session.ts markSignedOut). */
export const appKeys = {
  all: (org: string) => ['org', org, 'apps'] as const,
  list: (org: string) => ['org', org, 'apps', 'list'] as const,
  preview: (org: string, key: string) => ['org', org, 'apps', 'preview', key] as const,
  certs: (org: string) => ['org', org, 'apps', 'certs'] as const,
};

const appPath = (key: string) => `apps/${encodeURIComponent(key)}`;

export function appsQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: appKeys.list(orgClient.org),
    queryFn: async ({ signal }): Promise<ServiceApp[]> =>
      (await orgClient.get<ListEnvelope<ServiceApp>>('apps', { signal })).data,
  });
}

export function rotationPreviewQuery(orgClient: OrgClient, key: string) {
  return queryOptions({
    queryKey: appKeys.preview(orgClient.org, key),
    queryFn: async ({ signal }): Promise<RotationPreview> =>
      (await orgClient.get<ResultEnvelope<RotationPreview>>(`${appPath(key)}/rotation-preview`, { signal })).data,
    // Counts change with every login and mint: always ask again when the dialog opens.
    staleTime: 0,
    gcTime: 0,
  });
}

/** The public keys the org publishes (no auth needed; only apps with Expose Keys are listed). */
export function publishedKeysQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: appKeys.certs(orgClient.org),
    queryFn: async ({ signal }): Promise<PublishedKeys> => {
      const [jwk, pem] = await Promise.all([
        orgClient.get<{ keys: PublicJwk[] }>('auth/certs/jwk', { signal }),
        orgClient.get<{ keys: PublicPem[] }>('auth/certs/pem', { signal }),
      ]);
      return { jwk: jwk.keys, pem: pem.keys };
    },
    staleTime: 0,
  });
}

export type NewAppRequest = Partial<AppSettings> & { label: string; kind: AppKind };

/** Answers the app with its secret in FULL (signing apps): the caller must not cache that. */
export function createApp(orgClient: OrgClient, request: NewAppRequest): Promise<ServiceApp> {
  return orgClient.post<ServiceApp>('apps', request);
}

export function updateApp(orgClient: OrgClient, key: string, patch: Partial<AppSettings>): Promise<ServiceApp> {
  return orgClient.request<ServiceApp>('PATCH', appPath(key), { body: patch });
}

export async function deleteApp(orgClient: OrgClient, key: string): Promise<void> {
  await orgClient.request('DELETE', appPath(key));
}

/** Answers the app with its new secret in FULL: the caller must not cache that. */
export function rotateSecret(orgClient: OrgClient, key: string): Promise<ServiceApp> {
  return orgClient.post<ServiceApp>(`${appPath(key)}/secret`);
}

export function regenerateRsa(orgClient: OrgClient, key: string, alg?: TokenAlg): Promise<ServiceApp> {
  return orgClient.post<ServiceApp>(`${appPath(key)}/rsa`, alg === undefined ? {} : { alg });
}
