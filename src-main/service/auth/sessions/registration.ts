import { fault } from '../../../../src-shared/faults.js';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import { accountDef, prepareAccount, type PreparedAccount } from '../../accounts/accounts.js';
import type { StoredRecord } from '../../objects/stored-record.js';
import { limitAnonymousRequest } from '../../accounts/anonymous-limits.js';
import type { NewMessage } from '../../accounts/outbox.js';
import { presentRecord } from '../../objects/present.js';
import type { Doc } from '../../objects/validate.js';
import { VERIFY_TICKET_TTL_MS } from './account-tickets.js';
import { presentAsOwnSession } from './login.js';

/** Fields a self-registering user may set; roles, state and flags are never taken from the body. */
export const REGISTER_FIELDS = ['name', 'mobile', 'gender', 'locale'] as const;

export type RegistrationInput = { email: string; password: string } & Partial<
  Record<(typeof REGISTER_FIELDS)[number], unknown>
>;

/**
 * A new account (its session is the caller's to start), or — when the email is taken — an answer
 * of the same shape whose id names nothing (the caller starts a decoy session).
 */
export type Registration =
  | { kind: 'created'; accountId: string; account: ReturnType<typeof presentAsOwnSession> }
  | { kind: 'taken'; account: ReturnType<typeof presentRecord> };

/** What a registration writes besides the account, in the account's write transaction. */
export interface RegistrationEffects {
  /** The email is taken: its owner is told; nothing is stored. */
  onTaken(owner: { accountId: string; email: string }): void;
  /** The account is stored: its verification ticket and mail, and the device it registered from. */
  alongside(record: StoredRecord): void;
}

/**
 * Creates the account through the records service (records/create-account.ts, which runs the
 * account's create triggers; the route passes it in, auth/ sits below records/): answers the
 * account stored, or `taken` with the values it would have had.
 */
export type CreateRegisteredAccount = (
  prepared: PreparedAccount,
  effects: RegistrationEffects,
) => Promise<{ kind: 'created'; record: StoredRecord } | { kind: 'taken'; values: PreparedAccount['values'] }>;

/**
 * Registration (docs/sessions.md) that never tells an anonymous caller whether an email is taken
 * (issue #13 item 7): a taken email is answered exactly as a new one — the same status, an account
 * of the same shape (with an id that names nothing) and session cookies — after the same slow hash
 * and the same create triggers (whatever they answer is then the same for both), and the existing
 * owner is told through the outbox instead. The cookies of that answer name no session: what the
 * spec's "registering starts a session" leaves visible afterwards is written in docs/SECURITY.md.
 */
export async function registerAccount(
  svc: Service,
  org: Org,
  body: RegistrationInput,
  fingerprint: string,
  create: CreateRegisteredAccount,
): Promise<Registration> {
  if (!org.settings.registrationEnabled) {
    throw fault('accessDenied', 'registration', { reason: 'Registration is turned off for this org.' });
  }
  const fields: Record<string, unknown> = {};
  for (const name of REGISTER_FIELDS) if (body[name] !== undefined) fields[name] = body[name];
  const prepared = prepareAccount(svc, org, {
    ...fields,
    email: body.email,
    password: body.password,
    state: 'unverified',
    roles: [],
  });
  const now = svc.clock.now();
  limitAnonymousRequest(svc.requestCounters, org, 'register', prepared.values.email, now);
  const outcome = await create(prepared, {
    onTaken: (owner) => svc.outbox.add(org.id, registrationAttemptMessage(org, owner.accountId, owner.email), now),
    alongside: (record) => {
      const ticket = svc.accountTickets.issue('verify', org.id, record._id, VERIFY_TICKET_TTL_MS, now);
      svc.outbox.add(org.id, verificationMessage(org, record._id, record.doc.email as string, ticket), now);
      svc.locations.remember(org.id, record._id, fingerprint, now);
    },
  });
  const def = accountDef(svc, org);
  if (outcome.kind === 'taken') {
    // The shape store.insert gives a new record; its id is fresh and names nothing.
    const at = new Date(now).toISOString();
    const doc: Doc = { ...outcome.values, created: at, updated: at };
    svc.store.derivations?.derive(org.id, def, doc); // what the store adds to every account it writes
    return { kind: 'taken', account: presentRecord(def, { _id: svc.store.newId(), doc }, 5) };
  }
  const created = outcome.record;
  return { kind: 'created', accountId: created._id, account: presentAsOwnSession(svc, org, def, created) };
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
