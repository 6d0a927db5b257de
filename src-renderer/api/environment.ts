/**
 * Configuration as files (docs/configuration.md): export with a manifest, import an NDJSON file
 * (gzip allowed) with a dry run first, and deployments (stored exports run into another org).
 */
import { queryOptions } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import type { ListEnvelope } from './types';

import { CONFIG_SECTIONS, type ConfigSection } from '../../src-shared/contracts/environment';

export { CONFIG_SECTIONS, type ConfigSection };

export interface SectionChoice {
  on: boolean;
  /** Selected names; empty means every one (`*`). Entries may be `/regex/flags`. */
  names: string[];
  excludes: string[];
}

/** The manifest editor's state: configuration sections, and `c_` object types whose records travel. */
export interface ManifestChoices {
  sections: Record<ConfigSection, SectionChoice>;
  records: Record<string, SectionChoice>;
}

export function defaultChoices(): ManifestChoices {
  const sections = Object.fromEntries(
    CONFIG_SECTIONS.map((s) => [s, { on: true, names: [], excludes: [] }]),
  ) as unknown as Record<ConfigSection, SectionChoice>;
  return { sections, records: {} };
}

function selector(choice: SectionChoice): { includes: string[]; excludes?: string[] } {
  const includes = choice.names.length > 0 ? choice.names : ['*'];
  return choice.excludes.length > 0 ? { includes, excludes: choice.excludes } : { includes };
}

/** The manifest the choices stand for: one selector per chosen section, as the service reads it. */
export function buildManifest(choices: ManifestChoices): Record<string, unknown> {
  const manifest: Record<string, unknown> = {};
  for (const section of CONFIG_SECTIONS) {
    const choice = choices.sections[section];
    if (choice.on) manifest[section] = selector(choice);
  }
  for (const [type, choice] of Object.entries(choices.records)) if (choice.on) manifest[type] = selector(choice);
  return manifest;
}

/** A document of an export stream; resources carry `object` and `resource` (e.g. `role.reader`). */
export interface ExportDoc {
  object: string;
  resource?: string;
  [key: string]: unknown;
}

export function parseNdjson<T = ExportDoc>(text: string): T[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}

/** `POST /developer/environment/export`: the NDJSON text, complete (the last line is `manifest-exports`). */
export async function exportEnvironment(orgClient: OrgClient, manifest: Record<string, unknown>): Promise<string> {
  return orgClient.requestText('POST', 'developer/environment/export', {
    body: JSON.stringify({ manifest }),
    contentType: 'application/json',
    accept: 'application/x-ndjson',
  });
}

/** The resource documents of an export, in order. */
export const resourcesOf = (docs: ExportDoc[]) => docs.filter((d) => typeof d.resource === 'string');

/** The text of an import file: gzip (by its magic bytes, as the service decides) is unpacked first. */
export async function readImportFile(file: Blob): Promise<string> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const stream = file.stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).text();
  }
  return file.text();
}

export interface ImportLogEntry {
  object: 'manifest.log';
  timestamp: string;
  type: 'status' | 'resource';
  level: 'info' | 'warn';
  stage?: 'ingest' | 'backup' | 'import' | 'complete';
  resource?: string;
  change?: ChangeKind;
  message?: string;
}

/** `kept`: the org has it, the file does not; imports never delete (README, Configuration as files). */
export type ChangeKind = 'added' | 'changed' | 'kept' | 'unchanged';

/**
 * `POST /developer/environment/import`: the file as sent (gzip or not), answered with the
 * `manifest.log` documents. Success only when the last is `{type: status, stage: complete}`;
 * a refused import throws the fault (one entry per invalid resource in `faults`).
 */
export async function importEnvironment(
  orgClient: OrgClient,
  file: Blob,
  options: { dryRun: boolean; backup?: boolean; triggers?: boolean; onLog?: (entries: ImportLogEntry[]) => void },
): Promise<ImportLogEntry[]> {
  const onLog = options.onLog;
  const text = await orgClient.requestText('POST', 'developer/environment/import', {
    // Only whole lines: the last one may still be arriving.
    ...(onLog
      ? {
          onProgress: (soFar: string) =>
            onLog(parseNdjson<ImportLogEntry>(soFar.slice(0, soFar.lastIndexOf('\n') + 1))),
        }
      : {}),
    body: file,
    contentType: 'application/x-ndjson',
    accept: 'application/x-ndjson',
    query: {
      dryRun: options.dryRun ? 'true' : undefined,
      backup: options.backup ? 'true' : undefined,
      // The imported records' triggers run only when asked (docs/configuration.md#import).
      triggers: options.triggers ? 'true' : undefined,
    },
  });
  return parseNdjson<ImportLogEntry>(text);
}

export const importComplete = (log: ImportLogEntry[]) =>
  log.at(-1)?.type === 'status' && log.at(-1)?.stage === 'complete';

export interface ResourceChange {
  resource: string;
  change: ChangeKind;
  /** This org's current document (changed, kept, unchanged). */
  before?: ExportDoc;
  /** The file's document (added, changed, unchanged). */
  after?: ExportDoc;
}

/**
 * Per-resource changes of a dry run, with both documents for the side-by-side view: the kinds
 * come from the service's log; `before` from this org exported with the file's own manifest.
 */
export function joinChanges(log: ImportLogEntry[], incoming: ExportDoc[], current: ExportDoc[]): ResourceChange[] {
  const after = new Map(resourcesOf(incoming).map((d) => [d.resource!, d]));
  const before = new Map(resourcesOf(current).map((d) => [d.resource!, d]));
  return log
    .filter((e) => e.type === 'resource' && e.resource !== undefined && e.change !== undefined)
    .map((e) => {
      const change: ResourceChange = { resource: e.resource!, change: e.change! };
      const was = before.get(e.resource!);
      const is = after.get(e.resource!);
      if (was && e.change !== 'added') change.before = was;
      if (is && e.change !== 'kept') change.after = is;
      return change;
    });
}

/** The manifest an export file carries (its `manifest` document, minus the `object` marker). */
export function manifestOf(docs: ExportDoc[]): Record<string, unknown> | undefined {
  const doc = docs.find((d) => d.object === 'manifest');
  if (!doc) return undefined;
  const { object: _object, ...manifest } = doc;
  return manifest;
}

// Deployments -----------------------------------------------------------------------------------

/**
 * A deployment record. Where it goes is described by whichever target fields the service
 * stores (`targetOrg` today; other kinds, e.g. another data folder or a service URL, may add
 * their own), so the console shows them generically through `deploymentTarget`.
 */
export interface DeploymentRecord {
  _id: string;
  name: string;
  label?: string;
  description?: string;
  sourceOrg?: string;
  targetOrg?: string;
  manifest: string;
  [key: string]: unknown;
}

/** What an org's log says about a run of another org's deployment that read (`source`) or wrote (`target`) it. */
export interface PeerRunInfo {
  side: 'source' | 'target';
  /** The org holding the deployment. */
  org: string;
  otherFolder?: boolean;
  deployment: string;
  deploymentId: string;
  /** Who ran it there. */
  by: string;
  /** The credential this org issued that let it in (`token <jti>`, `app <key>`). */
  credential: string;
}

export interface DeploymentRun {
  object: 'deploymentRun';
  _id: number;
  deployment: string;
  by: string;
  started: string;
  finished: string;
  dryRun: boolean;
  result: 'dry-run' | 'complete' | 'failed';
  reason?: string;
  /** A dry run's answer carries the target's document (`before`) and the incoming one (`after`). */
  changes: { resource: string; change: ChangeKind | string; before?: ExportDoc; after?: ExportDoc }[];
  from?: PeerRunInfo;
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Where a deployment goes, as `kind: value` pairs read from its `target…` fields (`targetOrg` →
 * `org: staging`, `targetUrl` → `url: …`) or a `target` document's entries, so a new kind of
 * target shows without a console change.
 */
export function deploymentTarget(record: DeploymentRecord): { kind: string; value: string }[] {
  const out: { kind: string; value: string }[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (value === null || value === undefined) continue;
    if (key === 'target' && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v !== null && v !== undefined) out.push({ kind: k, value: text(v) });
      }
    } else if (/^target[A-Z]/.test(key)) {
      out.push({ kind: key.slice(6, 7).toLowerCase() + key.slice(7), value: text(value) });
    }
  }
  return out;
}

export const deploymentKeys = {
  all: (org: string) => ['org', org, 'deployments'] as const,
  runs: (org: string, id: string) => ['org', org, 'deployments', id, 'runs'] as const,
};

export function deploymentsQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: deploymentKeys.all(orgClient.org),
    queryFn: async ({ signal }): Promise<DeploymentRecord[]> =>
      (
        await orgClient.get<ListEnvelope<DeploymentRecord>>('deployments', {
          query: { limit: 1000, sort: '{"name":1}' },
          signal,
        })
      ).data,
  });
}

export function deploymentRunsQuery(orgClient: OrgClient, id: string) {
  return queryOptions({
    queryKey: deploymentKeys.runs(orgClient.org, id),
    queryFn: async ({ signal }): Promise<DeploymentRun[]> =>
      (await orgClient.get<ListEnvelope<DeploymentRun>>(`deployments/${encodeURIComponent(id)}/runs`, { signal })).data,
  });
}

export function runDeployment(orgClient: OrgClient, id: string, dryRun: boolean): Promise<DeploymentRun> {
  return orgClient.post<DeploymentRun>(`deployments/${encodeURIComponent(id)}/run`, { dryRun });
}

/**
 * A new deployment. Another org than this one, as source or target, needs a credential it issued
 * (`sourceToken`; `targetToken`, or `targetAppKey` + `targetSecret`): the service stores them
 * encrypted and never shows them again.
 */
export interface DeploymentDraft {
  name: string;
  label?: string;
  sourceOrg?: string;
  sourceToken?: string;
  targetKind?: 'org' | 'folder' | 'url';
  targetOrg: string;
  targetDataDir?: string;
  targetUrl?: string;
  targetToken?: string;
  targetAppKey?: string;
  targetSecret?: string;
  manifest: string;
}

export function createDeployment(orgClient: OrgClient, draft: DeploymentDraft): Promise<DeploymentRecord> {
  return orgClient.post<DeploymentRecord>('deployments', draft);
}

/** Runs of other orgs' deployments that read or wrote this org, with the credential it issued (`GET /developer/deployment-runs`). */
export function peerRunsQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: ['org', orgClient.org, 'deployment-runs', 'peer'] as const,
    queryFn: async ({ signal }): Promise<DeploymentRun[]> =>
      (await orgClient.get<ListEnvelope<DeploymentRun>>('developer/deployment-runs', { signal })).data,
  });
}
