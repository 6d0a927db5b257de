/**
 * Deployment credentials for tests (docs/orgs-and-apps.md): the token an org mints for one of its
 * administrators so that a deployment of another org may read or write it. Tests only.
 */
import { expect } from 'vitest';
import type { TestClient } from './harness.js';
import { mint } from './token-testing.js';

export interface DeployCredential {
  token: string;
  jti: string;
  accountId: string;
}

/**
 * A permanent token (so it can be revoked) minted by `admin` for their own account in their org,
 * through that org's console app, with `scope` (default: `deployment.execute`).
 */
export async function deployCredential(
  admin: TestClient,
  appKey: string,
  scope: string[] = ['deployment.execute'],
  extra: Record<string, unknown> = {},
): Promise<DeployCredential> {
  const me = await admin.get('/accounts/me');
  expect(me.statusCode, me.body).toBe(200);
  const accountId = me.json()._id as string;
  const token = await mint(admin, accountId, { app: appKey, scope, permanent: true, ...extra });
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { jti: string };
  return { token, jti: payload.jti, accountId };
}

/** Revokes a credential in the org that issued it. */
export async function revokeCredential(admin: TestClient, credential: DeployCredential): Promise<void> {
  const res = await admin.delete(`/accounts/${credential.accountId}/tokens/${credential.jti}`);
  expect(res.statusCode, res.body).toBe(200);
}
