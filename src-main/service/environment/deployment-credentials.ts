/**
 * The credentials a deployment holds for the other side (docs/orgs-and-apps.md): an org never reads or
 * writes another org, of this data folder or another, on the strength of being an administrator
 * of its own, nor of an email (an email names an account within its org only). The other side
 * issues a credential and can revoke it:
 *   - a token (`sourceToken`, `targetToken`) minted by an app of that org for one of its
 *     administrators, with a scope granting `deployment.execute` (all deployments, or
 *     `deployment.execute.<name>`); revoking it, letting it expire, locking the account or taking
 *     its administrator role away ends it;
 *   - for targets, a signing app's key and secret (`targetAppKey`, `targetSecret`) whose principal
 *     is an administrator there; regenerating the secret or disabling the app ends it.
 * Secrets are stored sealed with this folder's key (svc.cipher) and hidden on reads. Whoever the
 * credential names is who the run reads or writes as in that org, and that org logs the run.
 */
import { fault, FaultError } from '../../../src-shared/faults.js';
import { checkScope } from '../../../src-shared/scopes/index.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc, Json } from '../objects/validate.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import { authenticateCredentialToken } from '../auth/tokens/credential-token.js';
import { bodySha256, signaturesMatch } from '../auth/signatures/signature.js';
import { lookupAccountPrincipal } from '../apps/principal.js';
import { callerOf } from '../access/caller.js';

/** The sealed fields of a deployment, and what each holds. */
export const SEALED_FIELDS = {
  sourceToken: 'a token of the source org',
  targetToken: 'a token of the target org',
  targetSecret: "the signing app's secret",
} as const;
export type SealedField = keyof typeof SEALED_FIELDS;

const APP_SECRET = /^[A-Za-z0-9]{16,128}$/;
const JWT_TEXT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** Sealed secrets (crypto/cipher.ts) start so; plain secrets and tokens never do. */
const SEALED = /^v1\./;

/** Who a credential lets a run act as in the other org, and what the other side's log names it by. */
export interface PeerActor {
  accountId: string;
  email: string;
  /** `token <jti>`, `token of app <key>` (a token without jti) or `app <key>`. */
  credential: string;
}

/** The deployment as a token's scope names it: `deployment.execute.<name>` (or its `_id`). */
export interface DeploymentName {
  name: string;
  id?: string;
}

/**
 * Encrypts the credentials being written (in place): the record holds only their sealed form, and
 * reads never show them (the properties are hidden). A sealed value sent back is refused, so a
 * stored credential can be replaced but never copied into another deployment.
 */
export function sealDeploymentCredentials(svc: Service, values: Record<string, Json>): void {
  for (const field of Object.keys(SEALED_FIELDS) as SealedField[]) {
    const value = values[field];
    if (typeof value !== 'string') continue;
    const shape = field === 'targetSecret' ? APP_SECRET : JWT_TEXT;
    if (SEALED.test(value) || !shape.test(value)) {
      throw fault('validation', 'deployment', {
        path: field,
        reason: `${field} is ${SEALED_FIELDS[field]}${field === 'targetSecret' ? ': letters and digits' : ' (a JWT)'}.`,
      });
    }
    values[field] = svc.cipher.encrypt(value);
  }
}

/** The plain credential of a stored deployment; undefined when it holds none. */
export function unsealCredential(svc: Service, doc: Doc, field: SealedField): string | undefined {
  const sealed = doc[field];
  if (typeof sealed !== 'string' || sealed === '') return undefined;
  try {
    return svc.cipher.decrypt(sealed);
  } catch {
    throw fault('invalidArgument', 'deployment', {
      path: field,
      reason: `The stored ${field} cannot be decrypted with this data folder’s key: set it again.`,
    });
  }
}

/**
 * The administrator of `org` (of `svc`, the side's own service) that a token names, when the token
 * lets this deployment run there. Trust boundary: the token is checked by the org that issued it.
 */
export function actorByToken(svc: Service, org: Org, token: string, deployment: DeploymentName, path: string) {
  return refusedAs(path, org, () => {
    const auth = authenticateCredentialToken(svc, org, token);
    const { principal, scopes } = auth;
    if (!principal) throw fault('accessDenied', 'principal', { reason: 'The token names no account.' });
    requireAdministrator(principal.roles.includes(BUILTIN_ROLES.administrator), org);
    const aliases = deployment.id ? [deployment.id] : [];
    const decision = checkScope(scopes ?? [], { kind: 'deployment', identifier: deployment.name, aliases });
    if (!decision.allowed) {
      throw fault('accessDenied', 'scope', {
        reason: `The token does not grant deployment.execute for ${deployment.name} (${decision.explanation}).`,
      });
    }
    const jti = auth.claims?.jti;
    const credential = typeof jti === 'string' ? `token ${jti}` : `token of app ${auth.app?.key ?? ''}`;
    return { accountId: principal.accountId, email: principal.email, credential } satisfies PeerActor;
  });
}

/** The administrator of `org` that a signing app of `org` acts as, when `secret` is its secret. */
export function actorByApp(svc: Service, org: Org, key: string, secret: string, path: string): PeerActor {
  return refusedAs(path, org, () => {
    const app = svc.apps.byKey(key);
    const actual = app && app.orgId === org.id && app.kind === 'signing' ? svc.apps.secret(app) : undefined;
    // Compared as digests in constant time; an unknown key is refused like a wrong secret.
    if (!app || actual === undefined || !signaturesMatch(bodySha256(actual), bodySha256(secret))) {
      throw fault('accessDenied', 'app', { reason: `${key} is not a signing app of ${org.code} with that secret.` });
    }
    const expired = app.settings.expires !== null && Date.parse(app.settings.expires) <= svc.clock.now();
    if (!app.settings.enabled || expired || app.settings.readOnly) {
      throw fault('accessDenied', 'app', { reason: 'The app is disabled, expired or read-only.' });
    }
    const found = lookupAccountPrincipal(svc, org, app.settings.principalId ?? '');
    if (!('principal' in found))
      throw fault('accessDenied', 'principal', { reason: `The app's principal: ${found.problem}` });
    requireAdministrator(callerOf(svc, { org, principal: found.principal }).orgAdmin, org);
    return { accountId: found.principal.accountId, email: found.principal.email, credential: `app ${key}` };
  });
}

/** The credential's account must administer the org: a run reads or writes its configuration. */
function requireAdministrator(isAdministrator: boolean, org: Org): void {
  if (!isAdministrator)
    throw fault('accessDenied', 'principal', {
      reason: `The credential's account is not an administrator of ${org.code}.`,
    });
}

/** Any refusal of a credential, as one fault naming the field and the org that refused it. */
function refusedAs<T>(path: string, org: Org, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (!(err instanceof FaultError)) throw err;
    throw fault('accessDenied', 'deploymentCredential', {
      path,
      reason: `${org.code} refused the ${path}: ${err.fault.reason ?? err.fault.message}`,
    });
  }
}
