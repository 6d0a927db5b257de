/**
 * A URL deployment target: the other service's `POST /<org>/v2/developer/environment/import`,
 * signed (docs/signing.md, version 2) with the stored app key and secret; that service checks the
 * signature and its app's principal itself.
 *
 * Trust boundary: the address is an org administrator's choice and the answer comes from whatever
 * listens there. So (issue 38 Low 4): link-local and cloud metadata addresses are never connected
 * to (target-address.ts); the answer is read up to a bound; nothing of it is relayed as text — a
 * refusal by the target answers its own fault naming the target's errCode only when it has the
 * shape of one; and "nothing listens", "timed out", "not NDJSON" and "not this service" are one
 * and the same fault, so a deployment cannot be used to find out which ports listen.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { fault, FAULT_CATEGORIES, isFaultBody, type FaultCategory } from '../../../src-shared/faults.js';
import {
  CLIENT_KEY_HEADER,
  NONCE_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_VERSION_HEADER,
  TIMESTAMP_HEADER,
} from '../../../src-shared/contracts/http.js';
import type { Service } from '../service.js';
import type { Doc } from '../objects/validate.js';
import { randomAlphanumeric } from '../crypto/random.js';
import { signRequest } from '../auth/signatures/signature.js';
import { unsealCredential } from './deployment-credentials.js';
import type { TargetChange } from './deployment-log.js';
import { guardedLookup } from './target-address.js';

/** How long the other service may take to answer an import. */
const REMOTE_TIMEOUT_MS = 5 * 60_000;
/** The most of an answer read (a dry run's answer carries every changed document twice). */
export const MAX_REMOTE_ANSWER_BYTES = 64 * 1024 * 1024;
const ERR_CODE = /^service\.([a-zA-Z]{1,40})(\.[a-zA-Z0-9]{1,60})?$/;

export async function importRemote(
  svc: Service,
  doc: Doc,
  docs: unknown[],
  dryRun: boolean,
  triggers = false,
): Promise<TargetChange[]> {
  const base = String(doc.targetUrl).replace(/\/+$/, '');
  const flags = [...(dryRun ? ['dryRun=true'] : []), ...(triggers ? ['triggers=true'] : [])];
  const path = `/${encodeURIComponent(String(doc.targetOrg))}/v2/developer/environment/import${flags.length ? `?${flags.join('&')}` : ''}`;
  const body = docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
  const apiKey = String(doc.targetAppKey);
  const timestampMs = svc.clock.now();
  const nonce = randomAlphanumeric(16);
  const secret = unsealCredential(svc, doc, 'targetSecret') ?? '';
  const signature = signRequest({
    apiKey,
    apiSecret: secret,
    url: path,
    method: 'POST',
    timestampMs,
    version: 2,
    nonce,
    body,
  });
  const headers = {
    'content-type': 'application/x-ndjson',
    accept: 'application/x-ndjson',
    [CLIENT_KEY_HEADER]: apiKey,
    [SIGNATURE_HEADER]: signature,
    [TIMESTAMP_HEADER]: String(timestampMs),
    [NONCE_HEADER]: nonce,
    [SIGNATURE_VERSION_HEADER]: '2',
  };
  const text = await post(new URL(base + path), headers, body).catch(() => {
    throw unanswered(base);
  });
  return changesOf(text, base);
}

/** The answer's text; rejects on any failure to connect, a timeout, or an answer past the bound. */
function post(url: URL, headers: Record<string, string>, body: string): Promise<string> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: 'POST',
      headers,
      lookup: guardedLookup,
      signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS),
    });
    req.on('error', reject);
    // Redirects are not followed: the signed request goes to the stored address and nowhere else.
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_REMOTE_ANSWER_BYTES) {
          req.destroy(new Error('answer too large'));
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    req.end(body);
  });
}

function changesOf(text: string, base: string): TargetChange[] {
  let lines: unknown[];
  try {
    lines = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as unknown);
  } catch {
    throw unanswered(base);
  }
  const first = lines[0];
  if (isFaultBody(first)) throw refusedBy(base, first.errCode);
  const last = lines.at(-1) as { type?: unknown; stage?: unknown } | undefined;
  if (last?.type !== 'status' || last.stage !== 'complete') throw unanswered(base);
  const changes: TargetChange[] = [];
  for (const line of lines) {
    const l = line as Partial<TargetChange> & { type?: unknown };
    if (l.type !== 'resource') continue;
    if (typeof l.resource !== 'string' || typeof l.change !== 'string') throw unanswered(base);
    changes.push({
      resource: l.resource,
      change: l.change,
      ...(l.before !== undefined ? { before: l.before } : {}),
      ...(l.after !== undefined ? { after: l.after } : {}),
    });
  }
  return changes;
}

/** The one fault for every way the target fails to answer as this service does. */
function unanswered(base: string) {
  return fault('error', 'deploymentTarget', {
    path: 'targetUrl',
    reason: `The target service at ${base} could not be reached, did not answer in time, or did not answer as this service does.`,
  });
}

/** The target refused: our own fault, in the refusal's category, naming its errCode if it looks like one. */
function refusedBy(base: string, errCode: string) {
  const match = ERR_CODE.exec(errCode);
  const category = match?.[1] && match[1] in FAULT_CATEGORIES ? (match[1] as FaultCategory) : 'error';
  return fault(category, 'deploymentTarget', {
    path: 'targetUrl',
    reason: `The target service at ${base} refused the import${match ? ` (${errCode})` : ''}.`,
  });
}
