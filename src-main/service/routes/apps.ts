import type { FastifyRequest } from 'fastify';
import { fault, makeFault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { adminOnlyRoute } from '../http/org-scope.js';
import { ANY_BODY, type TypedServer } from '../http/route-schemas.js';
import type { App, AppKind, AppSettings } from '../apps/apps.js';
import { validateAppSettings } from '../apps/settings.js';
import { presentApp } from '../apps/present.js';
import { lookupAccountPrincipal } from '../apps/principal.js';
import { auditRequest } from '../http/audit.js';

/** An app as an audit entry's target (its key is no secret: every request carries it). */
const appTarget = (app: App) => ({ object: 'app', _id: app.key, label: app.settings.label });

const keyParams = {
  type: 'object',
  required: ['key'],
  properties: { key: { type: 'string', maxLength: 64 } },
} as const;
const objectBody = { type: 'object' } as const;

/**
 * Admin routes for applications (docs/orgs-and-apps.md#applications), org administrators only:
 *   GET    /apps                        list envelope of apps (secrets masked)
 *   POST   /apps                        {label, kind, ...settings} → the app, secret in full (once)
 *   GET    /apps/:key                   the app
 *   PATCH  /apps/:key                   {...settings} → the app (enabled:false disables)
 *   DELETE /apps/:key                   → result true
 *   POST   /apps/:key/secret            → the app, new secret in full (once); signing apps only
 *   GET    /apps/:key/rotation-preview  → result {secret: {...}, rsa: {...}}: what each operation stops
 *   POST   /apps/:key/rsa               {alg?} → the app with its new rsa.kid; old key never verifies again
 * `alg` is pinned per key pair, so PATCH cannot change it (only POST /apps/:key/rsa can).
 * The org's console app cannot be deleted, disabled or given an expiry: the console logs in with it.
 */
export function appsRoutes(svc: Service) {
  return async (server: TypedServer) => {
    // Every route of this group is for administrators.
    server.addHook('onRoute', adminOnlyRoute);

    server.get('/apps', async (request) => ({
      object: 'list',
      data: svc.apps.list(request.ctx.org.id).map((a) => presentApp(svc.apps, a)),
      hasMore: false,
    }));

    server.post('/apps', { schema: { body: objectBody } }, async (request) => createApp(svc, request, request.body));

    server.get('/apps/:key', { schema: { params: keyParams } }, async (request) =>
      presentApp(svc.apps, appOf(svc, request, request.params.key)),
    );

    server.patch('/apps/:key', { schema: { params: keyParams, body: objectBody } }, async (request) => {
      const target = appOf(svc, request, request.params.key);
      const patch = validateAppSettings(request.body, target.kind);
      checkSettingsAgainstOrg(svc, request, target, patch);
      const updated = svc.apps.update(target, patch);
      const changes = Object.keys(patch);
      auditRequest(svc, request, {
        cat: 'app',
        sub: 'update',
        target: appTarget(updated),
        summary: `Changed ${changes.join(', ') || 'nothing'} of app ${updated.settings.label}.`,
        changes,
      });
      return presentApp(svc.apps, updated);
    });

    server.delete('/apps/:key', { schema: { params: keyParams } }, async (request) => {
      const target = appOf(svc, request, request.params.key);
      if (isConsoleApp(request, target)) {
        throw fault('conflict', 'consoleApp', { reason: 'The console application of the org cannot be deleted.' });
      }
      svc.apps.remove(target);
      svc.replays.forgetApp(target.id);
      auditRequest(svc, request, {
        cat: 'app',
        sub: 'delete',
        target: appTarget(target),
        summary: `Deleted app ${target.settings.label}.`,
      });
      return { object: 'result', data: true };
    });

    server.post('/apps/:key/secret', { schema: { params: keyParams } }, async (request) => {
      const target = appOf(svc, request, request.params.key);
      if (target.kind !== 'signing') {
        throw fault('invalidArgument', 'app', { reason: 'Only signing applications have a secret.' });
      }
      const secret = svc.apps.rotateSecret(target);
      auditRequest(svc, request, {
        cat: 'app',
        sub: 'rotateSecret',
        target: appTarget(target),
        summary: `Rotated the API secret of app ${target.settings.label}: signed requests need the new one.`,
      });
      return presentApp(svc.apps, svc.apps.byId(target.id)!, secret);
    });

    server.get('/apps/:key/rotation-preview', { schema: { params: keyParams } }, async (request) => {
      const target = appOf(svc, request, request.params.key);
      return { object: 'result', data: rotationPreview(svc, target) };
    });

    // The body is optional here, so its schema takes any JSON; validateAppSettings checks it.
    server.post('/apps/:key/rsa', { schema: { params: keyParams, body: ANY_BODY } }, async (request) => {
      const target = appOf(svc, request, request.params.key);
      // No body means "same algorithm"; a JSON null is a body, and not an object.
      if (request.body === null) {
        throw fault('validation', undefined, { reason: 'The request body must be a JSON object.' });
      }
      const body = request.body ?? {};
      onlyAlg(body);
      const { alg = target.settings.alg } = validateAppSettings(body, target.kind);
      await svc.apps.regenerateRsa(target, svc.nowIso(), alg);
      // The algorithm is pinned per key pair; the app's setting follows its current pair.
      if (alg !== target.settings.alg) svc.apps.update(target, { alg });
      auditRequest(svc, request, {
        cat: 'app',
        sub: 'regenerateKeys',
        target: appTarget(target),
        summary: `Regenerated the RSA key pair (${alg}) of app ${target.settings.label}: its tokens no longer verify.`,
        changes: ['rsa', ...(alg !== target.settings.alg ? ['alg'] : [])],
      });
      return presentApp(svc.apps, svc.apps.byId(target.id)!);
    });
  };
}

/**
 * What each key operation actually stops (issue #13 item 20), so the console's dialogs tell the
 * truth: rotating the secret breaks signed requests only (tokens are signed with the RSA pair,
 * sessions with neither); regenerating the RSA pair breaks every token of the app — the live
 * stored ones counted here, and ephemeral ones, which the service does not keep — and nothing else.
 * `routes/apps.test.ts` proves each number against what stops working.
 */
function rotationPreview(svc: Service, target: App) {
  const liveTokens = svc.apps.liveStoredTokenCount(target.id, svc.clock.now());
  const signing = target.kind === 'signing' && target.hasSecret;
  return {
    secret: { applies: target.kind === 'signing', signedRequestsRefused: signing, tokens: 0, sessions: 0 },
    rsa: { signedRequestsRefused: false, tokens: liveTokens, ephemeralTokens: true, sessions: 0 },
  };
}

/** Trust boundary: the `kind` and settings of a new app come from the caller. */
async function createApp(svc: Service, request: FastifyRequest, body: Readonly<Record<string, unknown>>) {
  const kind = body.kind;
  if (kind !== 'session' && kind !== 'signing') {
    throw fault('validation', 'required', { path: 'kind', reason: 'kind must be session or signing.' });
  }
  if (body.label === undefined) throw fault('validation', 'required', { path: 'label', reason: 'label is required.' });
  const settings = validateAppSettings(body, kind as AppKind, ['kind']);
  checkSettingsAgainstOrg(svc, request, undefined, settings);
  const created = await svc.apps.create(
    request.ctx.org.id,
    kind,
    settings as Partial<AppSettings> & { label: string },
    svc.nowIso(),
  );
  auditRequest(svc, request, {
    cat: 'app',
    sub: 'create',
    target: appTarget(created.app),
    summary: `Created ${kind} app ${created.app.settings.label}.`,
    changes: Object.keys(settings),
  });
  return presentApp(svc.apps, created.app, created.secret);
}

/** The app named in the URL, if it belongs to the caller's org; other orgs' apps do not exist here. */
function appOf(svc: Service, request: FastifyRequest, key: string): App {
  const found = svc.apps.byKey(key);
  if (!found || found.orgId !== request.ctx.org.id) {
    throw fault('notFound', 'app', { reason: 'There is no application with this key in this org.' });
  }
  return found;
}

const isConsoleApp = (request: FastifyRequest, target: App): boolean =>
  request.ctx.org.settings.consoleAppKey === target.key;

/** Rules that need the org: the console app stays usable, principalId names an account. */
function checkSettingsAgainstOrg(
  svc: Service,
  request: FastifyRequest,
  target: App | undefined,
  patch: Partial<AppSettings>,
): void {
  if (target && isConsoleApp(request, target)) {
    if (patch.enabled === false) {
      throw fault('conflict', 'consoleApp', { reason: 'The console application of the org cannot be disabled.' });
    }
    if (patch.expires) {
      throw fault('conflict', 'consoleApp', { reason: 'The console application of the org cannot expire.' });
    }
  }
  if (target && patch.alg !== undefined && patch.alg !== target.settings.alg) {
    throw settingFault(
      'alg',
      'The algorithm is pinned to the key pair: choose it with POST /apps/:key/rsa {alg}, which replaces the pair and invalidates every token of the app.',
    );
  }
  if (typeof patch.principalId === 'string') {
    const found = lookupAccountPrincipal(svc, request.ctx.org, patch.principalId);
    if ('problem' in found) throw settingFault('principalId', found.problem);
  }
}

const settingFault = (path: string, reason: string) =>
  fault('validation', undefined, {
    reason: 'The application settings are not valid.',
    faults: [makeFault('validation', 'invalidValue', { path, reason, message: reason })],
  });

/** POST /apps/:key/rsa accepts nothing but an optional alg. */
function onlyAlg(body: unknown): void {
  if (typeof body !== 'object' || body === null) return; // validateAppSettings reports it
  const extra = Object.keys(body).filter((k) => k !== 'alg');
  if (extra.length > 0) {
    throw fault('validation', 'unknownProperty', { path: extra[0], reason: `${extra[0]} is not accepted here.` });
  }
}
