import type { FastifyRequest } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import type { Service } from '../service.js';
import { accountDef } from '../accounts/accounts.js';
import { newLocationFault } from '../auth/sessions/two-factor.js';
import { checkLogin } from '../auth/sessions/login.js';
import { registerAccount } from '../auth/sessions/registration.js';
import { anonymousCaller } from '../access/caller.js';
import { createAccountTriggered } from '../records/triggered-writes.js';
import { presentRecord } from '../objects/present.js';
import type { StoredRecord } from '../objects/stored-record.js';
import { levelOf, readableProperties, requireScope, scopeAllows, stripProperties } from '../access/objects.js';
import { isOperator } from '../access/operator.js';
import { requireCaller, requirePrincipal } from '../http/context.js';
import { SESSION_COOKIE } from '../http/authenticate.js';
import {
  fingerprintOf,
  requireSessionApp,
  setFingerprintCookie,
  startDecoySession,
  startSession,
} from '../http/login-session.js';
import { ANY_QUERY, type TypedServer } from '../http/route-schemas.js';
import { rawListArgs } from '../records/list-args.js';
import { expandPage, selectionOf } from '../records/expand.js';

const email = { type: 'string', maxLength: 254 } as const;
const password = { type: 'string', maxLength: 1024 } as const;

const loginBody = {
  type: 'object',
  required: ['email', 'password'],
  properties: {
    email,
    password,
    totp: { type: 'string', maxLength: 16 },
    location: {
      type: 'object',
      properties: { verificationToken: { type: 'string', maxLength: 16 } },
    },
  },
} as const;

/** What a self-registering user may send (registration.ts takes only its REGISTER_FIELDS). */
const registerBody = {
  type: 'object',
  required: ['email', 'password'],
  properties: {
    email,
    password,
    name: {
      type: 'object',
      properties: { first: { type: 'string' }, last: { type: 'string' } },
    },
    mobile: { type: 'string' },
    gender: { type: 'string' },
    locale: { type: 'string' },
  },
} as const;

/**
 * Session routes of docs/sessions.md for session apps: login, register, logout, me, status. The
 * credential checks live in auth/sessions/login.ts and registration.ts; here the session's cookies
 * are set and cleared.
 */
export function accountSessionRoutes(svc: Service) {
  return async (server: TypedServer) => {
    server.post('/accounts/login', { schema: { body: loginBody } }, async (request, reply) => {
      const { org } = request.ctx;
      const app = requireSessionApp(request);
      const { body } = request;
      const fingerprint = fingerprintOf(request);
      const outcome = await checkLogin(svc, org, {
        email: body.email,
        password: body.password,
        fingerprint,
        ...(body.totp !== undefined ? { totp: body.totp } : {}),
        ...(body.location?.verificationToken !== undefined ? { locationCode: body.location.verificationToken } : {}),
      });
      if (outcome.kind === 'newLocation') {
        setFingerprintCookie(request, reply, fingerprint);
        return reply.code(200).send(newLocationFault());
      }
      startSession(svc, request, reply, app, outcome.accountId, fingerprint);
      return outcome.account;
    });

    server.post('/accounts/register', { schema: { body: registerBody } }, async (request, reply) => {
      const app = requireSessionApp(request);
      const fingerprint = fingerprintOf(request);
      const { org } = request.ctx;
      // The account's create triggers run as the anonymous caller, its audit entry names the request.
      const caller = { ...anonymousCaller(), origin: { via: 'anonymous', app: app.key, address: request.ip } as const };
      const registration = await registerAccount(svc, org, request.body, fingerprint, (prepared, effects) =>
        createAccountTriggered(svc, org, prepared, { caller, ...effects }),
      );
      if (registration.kind === 'taken') {
        startDecoySession(svc, request, reply, fingerprint);
        return registration.account;
      }
      startSession(svc, request, reply, app, registration.accountId, fingerprint);
      return registration.account;
    });

    server.post('/accounts/me/logout', async (request, reply) => {
      const { session, org } = request.ctx;
      if (session) svc.sessions.end(session.idHash, 'logout');
      reply.clearCookie(SESSION_COOKIE, { path: `/${org.code}` });
      return { object: 'result', data: true };
    });

    // Read like GET /accounts/<own _id>: the token's scopes must allow reading the account
    // (no scopes: accessDenied.scope, not an empty shell), and `paths[]` projects.
    server.get('/accounts/me', { schema: { querystring: ANY_QUERY } }, async (request) => {
      const principal = requirePrincipal(request);
      const def = accountDef(svc, request.ctx.org);
      const caller = requireCaller(svc, request);
      requireScope(caller, 'read', def, principal.accountId);
      const raw = rawListArgs(request.query, '');
      const selection =
        raw.paths || raw.expand || raw.include ? selectionOf(svc, request.ctx.org, def, raw) : undefined;
      const record = svc.store.get(request.ctx.org.id, def, principal.accountId);
      if (!record) throw fault('notFound', 'instance', { reason: 'The account no longer exists.' });
      const out = presentForCaller(svc, request, def, record);
      const shown = selection?.paths ? projectPaths(out, selection.paths) : out;
      expandPage(svc, request.ctx.org, caller, [shown as typeof out], selection);
      return shown;
    });

    // Status answers every logged-in caller; the account comes with it only when the caller's
    // scopes may read it (a token without them gets no empty shell, as /accounts/me refuses).
    server.get('/accounts/status', async (request) => {
      const { principal, org } = request.ctx;
      if (!principal) return { object: 'result', data: { loggedin: false } };
      const def = accountDef(svc, org);
      const caller = requireCaller(svc, request);
      // Whether the caller is the service operator (docs/orgs-and-apps.md): the console offers "New org" then.
      const operator = isOperator(svc, org, caller);
      if (!scopeAllows(caller, 'read', def, principal.accountId)) {
        return { object: 'result', data: { loggedin: true, operator } };
      }
      const record = svc.store.get(org.id, def, principal.accountId);
      return {
        object: 'result',
        data: { loggedin: true, operator, account: record ? presentForCaller(svc, request, def, record) : null },
      };
    });
  };
}

/**
 * The caller's own account as the object routes would show it: their access level on it, and only
 * the properties their scopes let them read (a token limited to `object.read.account.*.name` sees
 * just the name).
 */
function presentForCaller(svc: Service, request: FastifyRequest, def: ObjectDef, record: StoredRecord) {
  const caller = requireCaller(svc, request);
  const level = levelOf(svc, request.ctx.org, caller, def, record);
  return stripProperties(presentRecord(def, record, level), readableProperties(caller, def, record._id));
}
