/**
 * Who a deployment may read and write (docs/orgs-and-apps.md), checked when it is saved (by any write path:
 * a record rule, deployment-record-rules.ts) and again at every run (deployments.ts), since
 * credentials can be revoked and rights lost after saving:
 *   - the org holding the deployment is the caller's own (its administrators make and run them);
 *   - any other source org, and any other target org — of this data folder or another — lets the
 *     deployment in only with a credential it issued (deployment-credentials.ts); the run then
 *     reads or writes there as the credential's account, never as the caller, and never because
 *     an account there has the caller's email. Same-folder orgs get no shortcut;
 *   - another data folder is the operator's (access/operator.ts), and needs the credential of its
 *     org as well;
 *   - a URL target is another service, which checks the signing app's key itself.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import type { Caller } from '../access/caller.js';
import { requireOperator } from '../access/operator.js';
import { sourceCodeOf, targetKindOf } from './deployment-rules.js';
import {
  actorByApp,
  actorByToken,
  unsealCredential,
  type DeploymentName,
  type PeerActor,
} from './deployment-credentials.js';

/** One side of a run: the org read or written, in its service; `actor` when it is not the holder's own org. */
export interface Side {
  svc: Service;
  org: Org;
  actor?: PeerActor;
}

/**
 * The save check: throws unless the caller may save this deployment as it would be stored (`doc`:
 * the record with the write applied, its credentials sealed).
 */
export function checkDeploymentAccess(svc: Service, holder: Org, caller: Caller, doc: Doc): void {
  const name = { name: String(doc.name) };
  authorizeSource(svc, holder, doc, name);
  const kind = targetKindOf(doc);
  if (kind === 'org')
    authorizeTarget(svc, requireOrg(svc, String(doc.targetOrg), 'in this data folder'), svc, holder, doc, name);
  if (kind === 'folder') {
    requireOperator(svc, holder, caller, 'deploy into another data folder');
    withFolder(svc, doc, (other, target) => authorizeTarget(other, target, svc, holder, doc, name));
  }
}

/** The source org of a run: the holder's own, or another that the source token lets in. */
export function authorizeSource(svc: Service, holder: Org, doc: Doc, deployment: DeploymentName): Side {
  const code = sourceCodeOf(holder, doc);
  const source = requireOrg(svc, code, 'in this data folder', 'sourceOrg');
  if (source.id === holder.id) return { svc, org: source };
  const token = unsealCredential(svc, doc, 'sourceToken');
  if (token === undefined) throw needsCredential('sourceToken', code, 'Reading');
  return { svc, org: source, actor: actorByToken(svc, source, token, deployment, 'sourceToken') };
}

/**
 * The target org of a run (`target`, in `targetSvc`, which is `svc` or another folder's service):
 * the holder's own, or another that the target token (else the signing app's key and secret) lets in.
 */
export function authorizeTarget(
  targetSvc: Service,
  target: Org,
  svc: Service,
  holder: Org,
  doc: Doc,
  deployment: DeploymentName,
): Side {
  if (targetSvc === svc && target.id === holder.id) return { svc, org: target };
  const token = unsealCredential(svc, doc, 'targetToken');
  if (token !== undefined) {
    return { svc: targetSvc, org: target, actor: actorByToken(targetSvc, target, token, deployment, 'targetToken') };
  }
  const secret = unsealCredential(svc, doc, 'targetSecret');
  if (typeof doc.targetAppKey === 'string' && secret !== undefined) {
    return {
      svc: targetSvc,
      org: target,
      actor: actorByApp(targetSvc, target, doc.targetAppKey, secret, 'targetSecret'),
    };
  }
  throw needsCredential('targetToken', target.code, 'Writing');
}

/** Runs `fn` on the folder target's service and org, closing the folder after. */
export function withFolder<T>(svc: Service, doc: Doc, fn: (other: Service, target: Org) => T): T {
  const dir = String(doc.targetDataDir);
  const other = svc.openDataFolder(dir, svc.clock);
  const closing = (value: T) => {
    if (value instanceof Promise) return value.finally(() => other.close()) as T;
    other.close();
    return value;
  };
  try {
    return closing(fn(other, requireOrg(other, String(doc.targetOrg), 'in that data folder')));
  } catch (err) {
    other.close();
    throw err;
  }
}

export function requireOrg(svc: Service, code: string, where: string, path = 'targetOrg'): Org {
  const org = svc.orgs.byCode(code);
  if (!org) throw fault('notFound', 'org', { path, reason: `There is no org ${code} ${where}.` });
  return org;
}

function needsCredential(path: 'sourceToken' | 'targetToken', code: string, doing: string) {
  return fault('accessDenied', 'deploymentCredential', {
    path,
    reason:
      `${doing} ${code} needs a credential that ${code} issued: a token minted there for one of its administrators ` +
      `with the scope deployment.execute${path === 'targetToken' ? ', or the key and secret of one of its signing apps' : ''}. ` +
      'Being an administrator here says nothing about another org.',
  });
}
