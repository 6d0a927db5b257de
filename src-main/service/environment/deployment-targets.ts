/**
 * Where a deployment's export is applied (objects/deployment-def.ts): the same import path in
 * every case — `importEnvironment` on this service (org of this folder), on a service opened on
 * another data folder, or the other service's `POST /developer/environment/import` reached with a
 * version 2 signed request. A dry run asks the target for its diff and writes nothing.
 */
import { fault, FaultError, isFaultBody } from '../../../src-shared/faults.js';
import {
  CLIENT_KEY_HEADER,
  NONCE_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_VERSION_HEADER,
  TIMESTAMP_HEADER,
} from '../../../src-shared/contracts/http.js';
import type { Service } from '../service.js';
import type { Clock } from '../clock.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { randomAlphanumeric } from '../crypto/random.js';
import { signRequest } from '../auth/signatures/signature.js';
import { administratorOf } from './actor.js';
import { importEnvironment } from './import.js';
import { targetKindOf, unsealDeploymentSecret } from './deployment-rules.js';
import type { Manifest } from './manifest.js';
import type { ScriptRules } from './apply.js';
import type { ResourceDoc } from './resources.js';

export interface TargetChange {
  resource: string;
  change: string;
  before?: unknown;
  after?: unknown;
}

export interface DeployInput {
  /** The deployment record. */
  doc: Doc;
  /** The export stream's documents, in order (resources, manifest, dependencies, exports). */
  docs: Record<string, unknown>[];
  resources: ResourceDoc[];
  manifest: Manifest;
  /** The caller, who must be an administrator of the target org (folder targets); url targets act as the app's principal. */
  callerEmail: string;
  dryRun: boolean;
}

/** Opens another data folder (never creating one); the caller closes it. Given by the host, which knows how folders open. */
export type FolderOpener = (dir: string, clock: Clock) => Service;

/** What a deployment needs from outside the environment code: how folders open, how scripts are checked. */
export interface DeploymentHost {
  openFolder: FolderOpener;
  scripts: ScriptRules;
}

/** How long the other service may take to answer an import. */
const REMOTE_TIMEOUT_MS = 5 * 60_000;

export async function deployToTarget(svc: Service, input: DeployInput, host: DeploymentHost): Promise<TargetChange[]> {
  const code = String(input.doc.targetOrg);
  switch (targetKindOf(input.doc)) {
    case 'org':
      return importHere(svc, requireOrg(svc, code, 'in this data folder'), input, host.scripts);
    case 'folder': {
      const other = host.openFolder(String(input.doc.targetDataDir), svc.clock);
      try {
        const target = requireOrg(other, code, `in ${String(input.doc.targetDataDir)}`);
        return await importHere(other, target, input, host.scripts);
      } finally {
        other.close();
      }
    }
    case 'url':
      return importRemote(svc, input);
  }
}

function requireOrg(svc: Service, code: string, where: string): Org {
  const org = svc.orgs.byCode(code);
  if (!org) throw fault('notFound', 'org', { path: 'targetOrg', reason: `There is no org ${code} ${where}.` });
  return org;
}

async function importHere(
  svc: Service,
  target: Org,
  input: DeployInput,
  scripts: ScriptRules,
): Promise<TargetChange[]> {
  const actorId = administratorOf(svc, target, input.callerEmail);
  const result = await importEnvironment(
    svc,
    target,
    { resources: input.resources, manifest: input.manifest },
    { actorId, dryRun: input.dryRun, scripts },
  );
  return result.changes.map((c) => ({
    resource: c.resource,
    change: c.change,
    ...(input.dryRun && c.before ? { before: c.before } : {}),
    ...(input.dryRun && c.after ? { after: c.after } : {}),
  }));
}

/** The other service's import route, signed (decisions §4, version 2) with the stored app key and secret. */
async function importRemote(svc: Service, input: DeployInput): Promise<TargetChange[]> {
  const base = String(input.doc.targetUrl).replace(/\/+$/, '');
  const path = `/${encodeURIComponent(String(input.doc.targetOrg))}/v2/developer/environment/import${input.dryRun ? '?dryRun=true' : ''}`;
  const body = input.docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
  const apiKey = String(input.doc.targetAppKey);
  const timestampMs = svc.clock.now();
  const nonce = randomAlphanumeric(16);
  const signature = signRequest({
    apiKey,
    apiSecret: unsealDeploymentSecret(svc, input.doc),
    url: path,
    method: 'POST',
    timestampMs,
    version: 2,
    nonce,
    body,
  });
  let text: string;
  try {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-ndjson',
        accept: 'application/x-ndjson',
        [CLIENT_KEY_HEADER]: apiKey,
        [SIGNATURE_HEADER]: signature,
        [TIMESTAMP_HEADER]: String(timestampMs),
        [NONCE_HEADER]: nonce,
        [SIGNATURE_VERSION_HEADER]: '2',
      },
      body,
      // The signed request goes to the address the administrator stored, nowhere else.
      redirect: 'error',
      signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS),
    });
    text = await res.text();
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw fault(timedOut ? 'timeout' : 'error', 'deploymentTarget', {
      path: 'targetUrl',
      reason: `The target service at ${base} ${timedOut ? 'did not answer in time' : `could not be reached: ${(err as Error).message}`}.`,
    });
  }
  const lines = parseLines(text, base);
  const first = lines[0];
  if (isFaultBody(first)) {
    // The target refused: its fault, saying it came from there (an accessDenied there is not one here).
    throw new FaultError({
      ...first,
      reason: `The target service at ${base} answered: ${first.reason ?? first.message}`,
    });
  }
  const last = lines.at(-1) as { type?: string; stage?: string } | undefined;
  if (last?.type !== 'status' || last.stage !== 'complete') {
    throw fault('error', 'deploymentTarget', {
      path: 'targetUrl',
      reason: `The target service at ${base} did not report the import complete.`,
    });
  }
  return lines
    .filter((l): l is TargetChange & { type: string } => (l as { type?: unknown }).type === 'resource')
    .map(({ resource, change, before, after }) => ({
      resource,
      change,
      ...(before !== undefined ? { before } : {}),
      ...(after !== undefined ? { after } : {}),
    }));
}

function parseLines(text: string, base: string): unknown[] {
  try {
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as unknown);
  } catch {
    throw fault('error', 'deploymentTarget', {
      path: 'targetUrl',
      reason: `The target service at ${base} answered something other than NDJSON: is it this service?`,
    });
  }
}
