import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fault, FaultError } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc, Json } from '../objects/validate.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import type { DeploymentTargetKind } from '../objects/deployment-def.js';
import { parseManifest } from './manifest.js';
import { administratorOf } from './actor.js';

const ORG_CODE = /^[a-z0-9][a-z0-9_-]{0,63}$/i;
const APP_KEY = /^[A-Za-z0-9]{1,64}$/;
const APP_SECRET = /^[A-Za-z0-9]{16,128}$/;
/** Sealed secrets (crypto/cipher.ts) start so; plain app secrets are letters and digits only. */
const SEALED = /^v1\./;

export function targetKindOf(doc: Doc): DeploymentTargetKind {
  return doc.targetKind === 'folder' || doc.targetKind === 'url' ? doc.targetKind : 'org';
}

/** The org a deployment exports: its `sourceOrg`, else the org holding it. */
export function sourceCodeOf(org: Org, doc: Doc): string {
  return typeof doc.sourceOrg === 'string' && doc.sourceOrg !== '' ? doc.sourceOrg : org.code;
}

/**
 * Checks a deployment record before it is written and again before it runs: the source org exists,
 * the target is complete for its kind (another org of this folder; an absolute folder path other
 * than this one; an http(s) URL with an app key and secret), the manifest parses. Who may read the
 * source is `checkDeploymentSource`.
 */
export function checkDeployment(svc: Service, org: Org, doc: Doc): void {
  const source = sourceCodeOf(org, doc);
  if (!svc.orgs.byCode(source)) throw invalid('sourceOrg', `There is no org ${source} in this data folder.`);
  if (typeof doc.name === 'string' && OBJECT_ID_PATTERN.test(doc.name)) throw invalid('name', 'A name is not an _id.');
  const kind = targetKindOf(doc);
  if (typeof doc.targetOrg !== 'string' || !ORG_CODE.test(doc.targetOrg)) {
    throw invalid('targetOrg', 'targetOrg is the code of the org written to.');
  }
  if (kind === 'org') {
    if (!svc.orgs.byCode(doc.targetOrg))
      throw invalid('targetOrg', `There is no org ${doc.targetOrg} in this data folder.`);
    if (doc.targetOrg === source) throw invalid('targetOrg', 'A deployment goes to another org than its source.');
  } else if (kind === 'folder') {
    const dir = doc.targetDataDir;
    if (typeof dir !== 'string' || !isAbsolute(dir)) {
      throw invalid('targetDataDir', 'targetDataDir is the absolute path of another data folder.');
    }
    if (realPathOf(dir) === realPathOf(dirname(svc.db.name))) {
      throw invalid('targetDataDir', 'That is this data folder: use targetKind "org" for its orgs.');
    }
  } else {
    checkUrl(doc.targetUrl);
    if (typeof doc.targetAppKey !== 'string' || !APP_KEY.test(doc.targetAppKey)) {
      throw invalid('targetAppKey', 'targetAppKey is the key of a signing app of the target org.');
    }
    if (typeof doc.targetSecret !== 'string' || doc.targetSecret === '') {
      throw invalid('targetSecret', "targetSecret is that app's secret (stored encrypted, never shown again).");
    }
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(String(doc.manifest));
  } catch {
    throw invalid('manifest', 'manifest is the export manifest as JSON text.');
  }
  try {
    parseManifest(manifest);
  } catch (err) {
    throw invalid('manifest', err instanceof FaultError ? `${err.fault.path}: ${err.fault.reason}` : String(err));
  }
}

/**
 * The source's configuration and records go to whoever saves or runs the deployment (a dry run
 * answers them, a run copies them where the caller says), so the caller must administer it, by the
 * target's rule: an administrator account with their email there. Checked on save and at every
 * run (rights may be lost after saving). The org holding the deployment is the caller's own.
 */
export function checkDeploymentSource(svc: Service, org: Org, doc: Doc, callerEmail: string): void {
  const sourceOrg = svc.orgs.byCode(sourceCodeOf(org, doc));
  if (sourceOrg && sourceOrg.id !== org.id) administratorOf(svc, sourceOrg, callerEmail);
}

/**
 * The path as the file system resolves it: symbolic links followed in the part that exists, the
 * rest appended. A link to this data folder is this data folder. Normalised first, as the folder
 * is opened (`join`), so `link/..` means what it will mean when opened.
 */
function realPathOf(path: string): string {
  const missing: string[] = [];
  let head = resolve(path);
  for (;;) {
    try {
      return join(realpathSync(head), ...missing);
    } catch {
      const parent = dirname(head);
      if (parent === head) return resolve(path);
      missing.unshift(basename(head));
      head = parent;
    }
  }
}

function checkUrl(value: unknown): void {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
    throw invalid('targetUrl', 'targetUrl is the http(s) address of the other service, e.g. http://127.0.0.1:7788.');
  }
}

/**
 * Encrypts a target secret being written (in place), like app secrets: the record holds only the
 * sealed form, and reads never show it (the property is hidden).
 */
export function sealDeploymentSecret(svc: Service, values: Record<string, Json>): void {
  const secret = values.targetSecret;
  if (typeof secret !== 'string') return;
  if (SEALED.test(secret) || !APP_SECRET.test(secret)) {
    throw invalid('targetSecret', 'targetSecret is the signing app secret: letters and digits.');
  }
  values.targetSecret = svc.cipher.encrypt(secret);
}

/** The plain secret of a url target. */
export function unsealDeploymentSecret(svc: Service, doc: Doc): string {
  try {
    return svc.cipher.decrypt(String(doc.targetSecret));
  } catch {
    throw fault('invalidArgument', 'deployment', {
      path: 'targetSecret',
      reason: 'The stored targetSecret cannot be decrypted with this data folder’s key: set it again.',
    });
  }
}

function invalid(path: string, reason: string) {
  return fault('validation', 'deployment', { path, reason });
}
