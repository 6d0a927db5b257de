import { fault } from '../../../../src-shared/faults.js';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import type { App } from '../../apps/apps.js';
import type { Principal } from '../../access/principal.js';
import type { Authentication, RequestInput } from '../authentication.js';
import { lookupAccountPrincipal } from '../../apps/principal.js';
import { parseSignatureVersion } from '../../../../src-shared/contracts/signing.js';
import {
  messageFor,
  NONCE_PATTERN,
  SIGNATURE_PATTERN,
  SIGNATURE_WINDOW_MS,
  signaturesMatch,
  TIMESTAMP_PATTERN,
} from './signature.js';

export const SIGNATURE_HEADER = 'service-client-signature';
export const TIMESTAMP_HEADER = 'service-client-timestamp';
export const NONCE_HEADER = 'service-client-nonce';
export const ACCOUNT_HEADER = 'service-client-account';
export const VERSION_HEADER = 'service-client-signature-version';

const invalid = (reason: string) => fault('accessDenied', 'invalidRequestSignature', { reason });

/** A header sent exactly once, or undefined; a repeated header is a malformed request. */
function single(request: RequestInput, name: string): string | undefined {
  const value = request.headers[name];
  if (Array.isArray(value)) throw invalid(`The ${name} header was sent more than once.`);
  return value;
}

/**
 * Trust boundary: signed requests (docs/signing.md). Returns undefined when no signature is needed
 * (no signature header, and the app is a session app or a signing app with allowUnsigned); throws
 * a fault when a signature is required, malformed, stale, wrong or replayed, or when the principal
 * it asks for is not allowed. Checks run cheapest first; the replay store only records requests
 * whose HMAC verified, so nobody without the secret can fill it.
 */
export function authenticateSignature(
  svc: Service,
  org: Org,
  app: App,
  request: RequestInput,
): Promise<Authentication> | undefined {
  const signature = single(request, SIGNATURE_HEADER);
  if (signature === undefined) {
    if (app.kind === 'signing' && !app.settings.allowUnsigned) {
      throw invalid('This application requires signed requests (Service-Client-Signature).');
    }
    return undefined;
  }
  if (app.kind !== 'signing') throw invalid('Only signing applications can sign requests.');

  const timestamp = single(request, TIMESTAMP_HEADER);
  const nonce = single(request, NONCE_HEADER);
  if (!SIGNATURE_PATTERN.test(signature)) throw invalid('Service-Client-Signature must be 64 hex characters.');
  if (timestamp === undefined || !TIMESTAMP_PATTERN.test(timestamp)) {
    throw invalid('Service-Client-Timestamp must be an integer (Unix time in milliseconds).');
  }
  if (nonce === undefined || !NONCE_PATTERN.test(nonce)) {
    throw invalid('Service-Client-Nonce must be exactly 16 letters or digits.');
  }

  const version = parseSignatureVersion(single(request, VERSION_HEADER));
  if (version === null) throw invalid('Service-Client-Signature-Version must be 1 or 2.');
  if (version === 1 && app.settings.requireSignatureV2) {
    throw invalid('This application requires version 2 signatures (Service-Client-Signature-Version: 2).');
  }

  const ts = Number(timestamp);
  const now = svc.clock.now();
  if (Math.abs(ts - now) > SIGNATURE_WINDOW_MS) {
    throw fault('invalidArgument', 'staleRequestSignature', {
      reason: 'Service-Client-Timestamp is more than 15 minutes from the server time (see Service-Server-Time).',
    });
  }

  const hmacKey = svc.apps.signatureHmacKey(app);
  if (hmacKey === undefined) throw invalid('This application has no signing secret.');
  const message = messageFor(version, {
    url: request.url,
    method: request.method,
    timestampMs: ts,
    nonce,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  if (message === null) throw invalid('The query string is not valid percent-encoded UTF-8, so it cannot be signed.');
  if (!signaturesMatch(hmacKey.digest(message), signature)) {
    throw invalid('The request signature does not match.');
  }

  // A request is replayable for as long as its timestamp passes the check above. Only the nonce
  // is remembered: two different requests may share a version-1 signature (same path, method and
  // millisecond), and a verified signature already binds the nonce in version 2.
  if (svc.replays.remember(app.id, nonce, now, ts + SIGNATURE_WINDOW_MS) === 'replayed') {
    throw invalid('This nonce was already used (replayed request).');
  }

  const principal = signedPrincipal(svc, org, app, single(request, ACCOUNT_HEADER));
  const authentication: Authentication = { org, app, via: 'signature', ...(principal ? { principal } : {}) };
  // Answered once the nonce is in the journal (one commit per event-loop turn, replay-journal.ts).
  return svc.replays.durable().then(() => authentication);
}

/**
 * Who a verified signed request acts as: the account named by Service-Client-Account when the app
 * allows principal override, else the app's principalId, else nobody (anonymous). Naming an account
 * through an app that does not allow override is refused rather than ignored, so a caller never
 * silently acts as someone other than whom it asked for.
 */
function signedPrincipal(svc: Service, org: Org, app: App, override: string | undefined): Principal | undefined {
  let name: string | null = app.settings.principalId;
  if (override !== undefined && override !== '') {
    if (!app.settings.principalOverride) {
      throw fault('accessDenied', 'principal', { reason: 'This application does not allow principal override.' });
    }
    name = override;
  }
  if (name === null) return undefined;
  // Cached per data version: any account write (a lock, a role change) or another process's
  // commit empties it, so the lookup is as current as reading the account on every request.
  const lookup = name;
  const found = svc.signingPrincipals.get(`${org.id}:${name}`, () => lookupAccountPrincipal(svc, org, lookup));
  if ('problem' in found) throw fault('accessDenied', 'principal', { reason: found.problem });
  return found.principal;
}
