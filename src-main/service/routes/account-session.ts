import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { dummyHash, hashPassword, verifyPassword } from '../accounts/password.js';
import { accountDef, insertAccount, prepareAccount } from '../accounts/accounts.js';
import { limitAnonymousRequest } from '../accounts/anonymous-limits.js';
import type { NewMessage } from '../accounts/outbox.js';
import type { Org } from '../orgs/orgs.js';
import { VERIFY_TICKET_TTL_MS } from '../auth/sessions/account-tickets.js';
import { newLocationFault, TwoFactor } from '../auth/sessions/two-factor.js';
import { presentRecord } from '../objects/present.js';
import { levelOf, readableProperties, requireScope, stripProperties } from '../access/objects.js';
import { callerOf } from '../access/caller.js';
import { parsePaths } from '../../../src-shared/query/parse.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import { rawListArgs } from './list-args.js';
import type { StoredRecord } from '../objects/store.js';
import type { Doc } from '../objects/validate.js';
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
import {
  fingerprintOf,
  requireSessionApp,
  setFingerprintCookie,
  startDecoySession,
  startSession,
} from '../http/login-session.js';

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
      async (request, reply) => register(svc, request, reply),
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

/**
 * Registration (decisions §5) that never tells an anonymous caller whether an email is taken
 * (issue #13 item 7): a taken email is answered exactly as a new one — the same status, an account
 * of the same shape (with an id that names nothing) and session cookies — after the same slow hash,
 * and the existing owner is told through the outbox instead. The cookies of that answer name no
 * session: what the spec's "registering starts a session" leaves visible afterwards is written
 * in docs/SECURITY.md.
 */
async function register(svc: Service, request: FastifyRequest<{ Body: RegisterBody }>, reply: FastifyReply) {
  const { org } = request.ctx;
  const app = requireSessionApp(request);
  if (!org.settings.registrationEnabled) {
    throw fault('accessDenied', 'registration', { reason: 'Registration is turned off for this org.' });
  }
  const { body } = request;
  const fields: Record<string, unknown> = {};
  for (const name of REGISTER_FIELDS) if (body[name] !== undefined) fields[name] = body[name];
  const { values, password } = prepareAccount(svc, org, {
    ...fields,
    email: body.email,
    password: body.password,
    state: 'unverified',
    roles: [],
  });
  const now = svc.clock.now();
  limitAnonymousRequest(svc.requestCounters, org, 'register', values.email, now);
  const hash = await hashPassword(password);
  const def = accountDef(svc, org);
  const fingerprint = fingerprintOf(request);
  const created = svc.db
    .transaction((): StoredRecord | undefined => {
      const owner = svc.credentials.byEmail(org.id, values.email);
      if (owner) {
        svc.outbox.add(org.id, registrationAttemptMessage(org, owner.account_id, owner.email), now);
        return undefined;
      }
      const record = insertAccount(svc, org, values, hash);
      const ticket = svc.accountTickets.issue('verify', org.id, record._id, VERIFY_TICKET_TTL_MS, now);
      svc.outbox.add(org.id, verificationMessage(org, record._id, values.email, ticket), now);
      svc.locations.remember(org.id, record._id, fingerprint, now);
      return record;
    })
    .immediate();
  if (!created) {
    // The shape store.insert gives a new record; its id is fresh and names nothing.
    const at = new Date(now).toISOString();
    startDecoySession(svc, request, reply, fingerprint);
    const doc: Doc = { ...values, created: at, updated: at };
    svc.store.derivations?.derive(org.id, def, doc); // what the store adds to every account it writes
    return presentRecord(def, { _id: svc.store.newId(), doc }, 5);
  }
  startSession(svc, request, reply, app, created._id, fingerprint);
  return presentAsOwnSession(svc, org, def, created);
}

function verificationMessage(org: Org, accountId: string, email: string, ticket: string): NewMessage {
  return {
    accountId,
    kind: 'verification',
    recipient: email,
    subject: 'Verify your email address',
    body: `Welcome! To verify your email address, send POST /${org.code}/v2/accounts/verify with {"token":"${ticket}"}. The token is valid for 7 days.`,
  };
}

function registrationAttemptMessage(org: Org, accountId: string, email: string): NewMessage {
  return {
    accountId,
    kind: 'registrationAttempt',
    recipient: email,
    subject: 'Someone tried to sign up with your email address',
    body: `Someone tried to create an account with this email address, which already has one. If it was you, log in; if you forgot your password, send POST /${org.code}/v2/accounts/request-password-reset with {"email":"${email}"}. If it was not you, you can ignore this message: nothing changed.`,
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
    // Counted like an account's guesses, so the lock-out fault appears for unknown emails too and
    // does not tell who has an account (issue #13 item 7).
    const admitted = svc.unknownEmails.begin(org.id, email, org.settings.lockAttempts, svc.clock.now());
    await verifyPassword(password, await dummyHash());
    if (!admitted) throw accountLocked();
    svc.unknownEmails.fail(org.id, email, org.settings, svc.clock.now());
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
    ...(body.location?.verificationToken !== undefined ? { locationCode: body.location.verificationToken } : {}),
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
