/**
 * Where a deployment's export is applied (objects/deployment-def.ts): the same import path in
 * every case — `importEnvironment` on this service (an org of this folder), on a service opened on
 * another data folder, or the other service's import route (remote-target.ts). A dry run asks the
 * target for its diff and writes nothing. Another org is written as the account its credential
 * names (deployment-access.ts), and logs the run in its own log.
 */
import { FaultError } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { importEnvironment } from './import.js';
import { targetKindOf } from './deployment-rules.js';
import { authorizeTarget, requireOrg, withFolder, type Side } from './deployment-access.js';
import type { DeploymentName } from './deployment-credentials.js';
import { logRun, type DeploymentRun, type TargetChange } from './deployment-log.js';
import { importRemote } from './remote-target.js';
import type { Manifest } from './manifest.js';
import type { ResourceDoc } from './resources.js';

export type { TargetChange } from './deployment-log.js';

export interface DeployInput {
  /** The deployment record, and its name and `_id` as a credential's scope names them. */
  doc: Doc;
  deployment: DeploymentName & { id: string };
  /** The org holding the deployment. */
  holder: Org;
  /** The caller (an administrator of the holder): the account written as in the holder's own org. */
  caller: { accountId: string; email: string };
  /** The export stream's documents, in order (resources, manifest, dependencies, exports). */
  docs: Record<string, unknown>[];
  resources: ResourceDoc[];
  manifest: Manifest;
  dryRun: boolean;
  /** Run the imported records' triggers in the target (environment/import-triggers.ts). */
  triggers?: boolean;
  started: string;
}

/**
 * Applies the export to the deployment's target. The target service checks what it imports by the
 * record rules it registered when it opened (records/rules.ts), a folder's as much as this one's.
 */
export async function deployToTarget(svc: Service, input: DeployInput): Promise<TargetChange[]> {
  const { doc, holder, deployment } = input;
  switch (targetKindOf(doc)) {
    case 'org': {
      const target = requireOrg(svc, String(doc.targetOrg), 'in this data folder');
      return importInto(svc, authorizeTarget(svc, target, svc, holder, doc, deployment), input);
    }
    case 'folder':
      return withFolder(svc, doc, (other, target) =>
        importInto(svc, authorizeTarget(other, target, svc, holder, doc, deployment), input),
      );
    case 'url':
      return importRemote(svc, doc, input.docs, input.dryRun, input.triggers === true);
  }
}

async function importInto(svc: Service, side: Side, input: DeployInput): Promise<TargetChange[]> {
  const actorId = side.actor?.accountId ?? input.caller.accountId;
  let changes: TargetChange[];
  try {
    const result = await importEnvironment(
      side.svc,
      side.org,
      { resources: input.resources, manifest: input.manifest },
      { actorId, dryRun: input.dryRun, triggers: input.triggers === true },
    );
    changes = result.changes.map((c) => ({
      resource: c.resource,
      change: c.change,
      ...(input.dryRun && c.before ? { before: c.before } : {}),
      ...(input.dryRun && c.after ? { after: c.after } : {}),
    }));
  } catch (err) {
    logPeerRun(svc, side, input, 'target', { result: 'failed', reason: reasonOf(err), changes: [] });
    throw err;
  }
  logPeerRun(svc, side, input, 'target', {
    result: input.dryRun ? 'dry-run' : 'complete',
    changes: changes.map((c) => ({ resource: c.resource, change: c.change })),
  });
  return changes;
}

/**
 * Logs a run in the other org it read or wrote (nothing for the holder's own org, which logs every
 * run itself), as the account the credential names there. `svc`: the holder's service.
 */
export function logPeerRun(
  svc: Service,
  side: Side,
  input: Pick<DeployInput, 'deployment' | 'holder' | 'caller' | 'dryRun' | 'started'>,
  role: 'source' | 'target',
  outcome: Pick<DeploymentRun, 'result' | 'reason' | 'changes'>,
): void {
  if (!side.actor) return;
  logRun(side.svc, side.org, {
    deployment: input.deployment.id,
    by: side.actor.email,
    started: input.started,
    dryRun: input.dryRun,
    ...outcome,
    from: {
      side: role,
      org: input.holder.code,
      ...(side.svc !== svc ? { otherFolder: true } : {}),
      deployment: input.deployment.name,
      deploymentId: input.deployment.id,
      by: input.caller.email,
      credential: side.actor.credential,
    },
  });
}

export function reasonOf(err: unknown): string {
  return err instanceof FaultError ? (err.fault.reason ?? err.fault.message) : (err as Error).message;
}
