import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fault, FaultError } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import type { DeploymentTargetKind } from '../objects/deployment-def.js';
import { parseManifest } from './manifest.js';
import { refusedHostReason } from './target-address.js';

const ORG_CODE = /^[a-z0-9][a-z0-9_-]{0,63}$/i;
const APP_KEY = /^[A-Za-z0-9]{1,64}$/;

export function targetKindOf(doc: Doc): DeploymentTargetKind {
  return doc.targetKind === 'folder' || doc.targetKind === 'url' ? doc.targetKind : 'org';
}

/** The org a deployment exports: its `sourceOrg`, else the org holding it. */
export function sourceCodeOf(org: Org, doc: Doc): string {
  return typeof doc.sourceOrg === 'string' && doc.sourceOrg !== '' ? doc.sourceOrg : org.code;
}

/**
 * Checks a deployment record's shape before it is written and again before it runs: the source org
 * exists, the target is complete for its kind (another org of this folder; an absolute folder path
 * other than this one; an http(s) URL, not a link-local one, with an app key and secret), the
 * manifest parses. Who may read the source and write the target is deployment-access.ts.
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
  }
  checkTargetApp(doc, kind === 'url');
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
  const refused = refusedHostReason(url.hostname);
  if (refused) throw invalid('targetUrl', refused);
}

/**
 * A signing app's key and secret: required for url targets; for org and folder targets one of the
 * two kinds of credential (a target token is the other), so given whole or not at all.
 */
function checkTargetApp(doc: Doc, required: boolean): void {
  const hasKey = typeof doc.targetAppKey === 'string' && doc.targetAppKey !== '';
  const hasSecret = typeof doc.targetSecret === 'string' && doc.targetSecret !== '';
  if (!required && !hasKey && !hasSecret) return;
  if (!hasKey || !APP_KEY.test(String(doc.targetAppKey))) {
    throw invalid('targetAppKey', 'targetAppKey is the key of a signing app of the target org.');
  }
  if (!hasSecret) {
    throw invalid('targetSecret', "targetSecret is that app's secret (stored encrypted, never shown again).");
  }
}

function invalid(path: string, reason: string) {
  return fault('validation', 'deployment', { path, reason });
}
