import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { dummyHash, verifyPassword } from '../accounts/password.js';
import { accountDef, createAccount } from '../accounts/accounts.js';
import { VERIFY_TOKEN_TTL_MS } from '../auth/sessions/password-reset.js';
import { newLocationFault, TwoFactor } from '../auth/sessions/two-factor.js';
import { presentRecord } from '../objects/present.js';
import { levelOf, readableProperties, requireScope, stripProperties } from '../access/objects.js';
import { callerOf } from '../access/caller.js';
import type { Org } from '../orgs/orgs.js';
import { parsePaths } from '../../../src-shared/query/parse.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import { rawListArgs } from './list-args.js';
import type { StoredRecord } from '../objects/store.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { requireCaller, requirePrincipal } from '../http/context.js';
import { SESSION_COOKIE } from '../http/authenticate.js';
import {
  accountLocked,
  beginCredentialAttempt,
  failCredentialAttempt,
  invalidCredentials,
  releaseCredentialAttempt,
  unlockAccount,
} from '../auth/sessions/credential-lockout.js';
import { fingerprintOf, requireSessionApp, setFingerprintCookie, startSession } from '../http/login-session.js';

interface LoginBody {
  email: string;
  password: string;
  totp?: string;
  location?: { verificationToken?: string };
}

/** Fields a self-registering user may set; roles, state and flags are never taken from the body. */
const REGISTER_FIELDS = ['name', 'mobile', 'gender', 'locale'] as const;
type RegisterBody = { email: string; password: string } & Partial<Record<(typeof REGISTER_FIELDS)[number], unknown>>;

/**
 * Session routes of decisions §5 for session apps: login, register, logout, me, status.
 * Login never says whether the email exists, and a wrong email costs a hash like a wrong password.
 */
export function accountSessionRoutes(svc: Service) {
  const twoFactor = new TwoFactor(svc);

  return async (server: FastifyInstance) => {
    server.post<{ Body: LoginBody }>(
      '/accounts/login',
      {
        schema: {
          body: {
            type: 'object',
            required: ['email', 'password'],
            properties: {
              email: { type: 'string', maxLength: 254 },
              password: { type: 'string', maxLength: 1024 },
              totp: { type: 'string', maxLength: 16 },
              location: {
                type: 'object',
                properties: { verificationToken: { type: 'string', maxLength: 16 } },
              },
            },
          },
        },
      },
      async (request, reply) => login(svc, twoFactor, request, reply),
    );

    server.post<{ Body: RegisterBody }>(
      '/accounts/register',
      {
        schema: {
          body: {
            type: 'object',
            required: ['email', 'password'],
            properties: {
              email: { type: 'string', maxLength: 254 },
              password: { type: 'string', maxLength: 1024 },
              name: {
                type: 'object',
                properties: { first: { type: 'string' }, last: { type: 'string' } },
              },
              mobile: { type: 'string' },
              gender: { type: 'string' },
              locale: { type: 'string' },
            },
          },
        },
      },
      async (request, reply) => {
        const { org } = request.ctx;
        const app = requireSessionApp(request);
        if (!org.settings.registrationEnabled) {
          throw fault('accessDenied', 'registration', { reason: 'Registration is turned off for this org.' });
        }
        const { body } = request;
        const fields: Record<string, unknown> = {};
        for (const name of REGISTER_FIELDS) if (body[name] !== undefined) fields[name] = body[name];
        const record = await createAccount(svc, org, {
          ...fields,
          email: body.email,
          password: body.password,
          state: 'unverified',
          roles: [],
        });
        const now = svc.clock.now();
        const email = String(record.doc.email);
        const token = svc.accountTokens.issue('verify', org.id, record._id, VERIFY_TOKEN_TTL_MS, now);
        svc.outbox.add(
          org.id,
          {
            accountId: record._id,
            kind: 'verification',
            recipient: email,
            subject: 'Verify your email address',
            body: `Welcome! To verify your email address, send POST /${org.code}/v2/accounts/verify with {"token":"${token}"}. The token is valid for 7 days.`,
          },
          now,
        );
        const fingerprint = fingerprintOf(request);
        svc.locations.remember(org.id, record._id, fingerprint, now);
        startSession(svc, request, reply, app, record._id, fingerprint);
        return presentAsOwnSession(svc, org, accountDef(svc, org), record);
      },
    );

    server.post('/accounts/me/logout', async (request, reply) => {
      const { session, org } = request.ctx;
      if (session) svc.sessions.end(session.idHash, 'logout');
      reply.clearCookie(SESSION_COOKIE, { path: `/${org.code}` });
      return { object: 'result', data: true };
    });

    // Read like GET /accounts/<own _id>: the token's scopes must allow reading the account
    // (no scopes: accessDenied.scope, not an empty shell), and `paths[]` projects.
    server.get('/accounts/me', async (request) => {
      const principal = requirePrincipal(request);
      const def = accountDef(svc, request.ctx.org);
      requireScope(requireCaller(svc, request), 'read', def, principal.accountId);
      const paths = parsePaths(rawListArgs(request.query as Record<string, unknown>, '').paths, def);
      const record = svc.store.get(request.ctx.org.id, def, principal.accountId);
      if (!record) throw fault('notFound', 'instance', { reason: 'The account no longer exists.' });
      const out = presentForCaller(svc, request, def, record);
      return paths ? projectPaths(out, paths) : out;
    });

    server.get('/accounts/status', async (request) => {
      const { principal, org } = request.ctx;
      if (!principal) return { object: 'result', data: { loggedin: false } };
      const def = accountDef(svc, org);
      const record = svc.store.get(org.id, def, principal.accountId);
      return {
        object: 'result',
        data: { loggedin: true, account: record ? presentForCaller(svc, request, def, record) : null },
      };
    });
  };
}

async function login(
  svc: Service,
  twoFactor: TwoFactor,
  request: FastifyRequest<{ Body: LoginBody }>,
  reply: FastifyReply,
) {
  const { org } = request.ctx;
  const app = requireSessionApp(request);
  const { body } = request;
  const { email, password } = body;

  const cred = svc.credentials.byEmail(org.id, email);
  if (!cred) {
    await verifyPassword(password, await dummyHash());
    throw invalidCredentials();
  }
  const def = accountDef(svc, org);
  // The guess is counted before the slow hash, so guesses racing in at once cannot outrun the limit.
  if (!beginCredentialAttempt(svc, org, cred.account_id)) {
    await verifyPassword(password, await dummyHash());
    throw accountLocked();
  }
  if (!(await verifyPassword(password, cred.password_hash))) {
    failCredentialAttempt(svc, org, cred.account_id);
    throw invalidCredentials();
  }
  const record = svc.store.get(org.id, def, cred.account_id);
  if (!record) {
    releaseCredentialAttempt(svc, org, cred.account_id);
    throw invalidCredentials();
  }

  const fingerprint = fingerprintOf(request);
  const second = twoFactor.check(org, cred, {
    fingerprint,
    ...(body.totp !== undefined ? { totp: body.totp } : {}),
    ...(body.location?.verificationToken !== undefined ? { locationToken: body.location.verificationToken } : {}),
  });
  if (second.kind !== 'ok' && second.kind !== 'totpWrong' && second.kind !== 'locationWrong') {
    releaseCredentialAttempt(svc, org, cred.account_id);
  }
  switch (second.kind) {
    case 'totpRequired':
      throw fault('accessDenied', 'totpRequired', {
        reason: 'This account uses an authenticator app: send its current code as totp.',
      });
    case 'totpWrong':
      failCredentialAttempt(svc, org, cred.account_id);
      throw invalidCredentials('Invalid email/password/authenticator code combination.');
    case 'locationWrong':
      // A wrong code is a wrong credential: the reserved attempt counts toward the account's
      // lock-out (issue #13 item 6).
      failCredentialAttempt(svc, org, cred.account_id);
      throw fault('accessDenied', 'locationToken', { reason: 'The location verification code is wrong.' });
    case 'locationExpired':
      throw fault('expired', 'locationToken', {
        reason: 'The location verification code expired or was tried too often; log in without it to get a new one.',
      });
    case 'newLocation':
      setFingerprintCookie(request, reply, fingerprint);
      return reply.code(200).send(newLocationFault());
    case 'ok':
      break;
  }

  unlockAccount(svc, org, cred.account_id);
  startSession(svc, request, reply, app, cred.account_id, fingerprint);
  return presentAsOwnSession(svc, org, def, { ...record, doc: { ...record.doc, locked: false } });
}

/**
 * The account a login or registration just started a session for, with the level the session's
 * reads will show (an administrator's is 8 here too, not a fixed 5).
 */
function presentAsOwnSession(svc: Service, org: Org, def: ObjectDef, record: StoredRecord) {
  const caller = callerOf(svc, { org, principal: { accountId: record._id, email: '', roles: [] } });
  return presentRecord(def, record, levelOf(svc, org, caller, def, record));
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
