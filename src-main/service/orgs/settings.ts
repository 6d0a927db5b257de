/**
 * Org settings: what they are, their defaults and allowed values, in one place for every way they
 * are set (the admin CLI's `org set`, environment import's `env` document) and for reading them
 * back from the database (issue 38 low 1).
 */
import { fault, makeFault, type FaultBody } from '../../../src-shared/faults.js';

export interface OrgSettings {
  /** Key of the session app the console logs in with. */
  consoleAppKey?: string;
  lockAttempts: number;
  /** Minutes; 0 = until an administrator unlocks. */
  lockDuration: number;
  allowSimultaneousLogins: boolean;
  /** Operators that can be turned off per org (docs/query-semantics.md). */
  disableNegation: boolean;
  /** Whether `POST /accounts/register` is open (docs/sessions.md). */
  registrationEnabled: boolean;
  /**
   * Two-factor by new-location verification (docs/sessions.md). Off by default: the codes go to the
   * local outbox, which only an administrator can read in the console, so with this on the org's
   * first administrator could not log in from a new browser — offline there is no mailbox to
   * receive the code. Turn it on once a second administrator or TOTP is set up.
   */
  verifyNewLocations: boolean;
  /**
   * Anonymous `register` and `request-password-reset` requests allowed per hour, per email address
   * and per org (each route counted on its own); beyond, `throttled.policy` (issue #13 item 9).
   */
  anonymousRequestsPerEmail: number;
  anonymousRequestsPerOrg: number;
  /** Days an ended or idle session is kept (so its old cookie can still say why it ended). */
  sessionRetentionDays: number;
  /** Days an outbox message is kept. */
  outboxRetentionDays: number;
  /** Days a script run's log entry is kept (issue 41; the original keeps 30). */
  logRetentionDays: number;
  /** Days an audit entry is kept (issue 41). */
  auditRetentionDays: number;
  /** Whether every record write leaves an audit entry too (administrative actions always do). */
  auditRecordWrites: boolean;
  /** Overrides of the script sandbox limits by name (scripting/limits.ts); absent = the original's defaults. */
  scriptLimits?: Record<string, number>;
  /** Scripts' key/value configuration (`require('config')`, scripting/org-config.ts). */
  scriptConfig?: Record<string, unknown>;
  /** Scripts' counters (`require('counters')`). */
  scriptCounters?: Record<string, number>;
  /** `require('http')` in scripts: off unless an administrator turns it on (scripting/host-http.ts). */
  scriptHttpEnabled: boolean;
  /** The hosts (`name` or `name:port`) scripts may call when `scriptHttpEnabled`. */
  scriptHttpHosts?: string[];
}

export const DEFAULT_ORG_SETTINGS: OrgSettings = {
  lockAttempts: 5,
  lockDuration: 15,
  allowSimultaneousLogins: false,
  disableNegation: false,
  registrationEnabled: true,
  verifyNewLocations: false,
  anonymousRequestsPerEmail: 5,
  anonymousRequestsPerOrg: 100,
  sessionRetentionDays: 7,
  outboxRetentionDays: 30,
  scriptHttpEnabled: false,
  logRetentionDays: 30,
  auditRetentionDays: 365,
  auditRecordWrites: false,
};

type Settable = Exclude<
  keyof OrgSettings,
  'consoleAppKey' | 'scriptLimits' | 'scriptConfig' | 'scriptCounters' | 'scriptHttpHosts'
>;
type NumberSetting = { [K in Settable]: OrgSettings[K] extends number ? K : never }[Settable];

/**
 * The integer range of every numeric setting (a new one does not compile without its range). The
 * bounds keep each setting meaningful: a lock-out after 0 attempts, a negative duration or a
 * retention under a day would lock everyone out or end live sessions.
 */
export const ORG_NUMBER_RANGES: Readonly<Record<NumberSetting, readonly [number, number]>> = {
  lockAttempts: [1, 1000],
  lockDuration: [0, 525_600], // minutes; 0 = until an administrator unlocks; at most a year
  anonymousRequestsPerEmail: [1, 1000], // per hour
  anonymousRequestsPerOrg: [1, 1_000_000], // per hour
  // At least a day: no session stays live longer idle than the largest authDuration (86400 s).
  sessionRetentionDays: [1, 3650],
  outboxRetentionDays: [1, 3650],
  logRetentionDays: [1, 3650],
  auditRetentionDays: [1, 3650],
};

/** The settings an administrator sets: every number and boolean (consoleAppKey is the service's). */
export const SETTABLE_ORG_SETTINGS = Object.keys(DEFAULT_ORG_SETTINGS).filter(
  (k) => k !== 'consoleAppKey' && k !== 'scriptLimits',
) as Settable[];

/**
 * Settings an environment export never carries, and who sets each: the reason given when an import
 * names one (an export made before they were left out) with a value other than the target's.
 * Operator-only limits never leave their org (docs/SECURITY.md); counters are runtime state; config
 * values travel as their own `config.<key>` resources (docs/configuration.md).
 */
export const NOT_EXPORTED_SETTINGS: Readonly<Record<'scriptLimits' | 'scriptCounters' | 'scriptConfig', string>> = {
  scriptLimits: 'is set by the operator only (npm run admin -- org set), never by an import',
  scriptCounters: "is the scripts' runtime state (require('counters')), never imported",
  scriptConfig: "is set by scripts (require('config')); an export carries each value as a config.<key> resource",
};

/**
 * Keys of `require('config')` and `require('counters')` (scripting/org-config.ts), and the most
 * configuration an org keeps: also what an import's `config.<key>` resources must meet.
 */
export const SCRIPT_CONFIG_KEY = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,199}$/;
export const MAX_SCRIPT_CONFIG_BYTES = 1024 * 1024;

const HTTP_HOST = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]{1,253})(:\d{1,5})?$/;

const isSettable = (name: string): name is Settable => (SETTABLE_ORG_SETTINGS as string[]).includes(name);

/** Why `value` is not a valid `name`, or undefined when it is. */
function problemOf(name: Settable, value: unknown): { detail: string; reason: string } | undefined {
  if (typeof DEFAULT_ORG_SETTINGS[name] === 'boolean') {
    return typeof value === 'boolean' ? undefined : { detail: 'invalidType', reason: 'must be true or false' };
  }
  const [min, max] = ORG_NUMBER_RANGES[name as NumberSetting];
  // JSON's 1e999 is Infinity (stored as null), 2.5 is no count: integers only.
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    return { detail: 'invalidType', reason: `must be an integer ${min}–${max}` };
  }
  if (value < min || value > max) return { detail: 'outOfRange', reason: `must be an integer ${min}–${max}` };
  return undefined;
}

/**
 * Trust boundary: org settings as an administrator sends them (the CLI's `org set`, an import's
 * `env` document). Every name must be a settable setting and every value of its type and range;
 * each problem is a child fault naming `<prefix><name>`, and nothing is returned unless all hold.
 * `sameAsHere` (an import): a NOT_EXPORTED_SETTINGS name is ignored when its value is the org's
 * own, else refused saying who sets it; without it such a name is unknown, as for `org set`.
 */
export function validateOrgSettings(
  input: unknown,
  prefix = '',
  sameAsHere?: (name: keyof typeof NOT_EXPORTED_SETTINGS, value: unknown) => boolean,
): Partial<OrgSettings> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw fault('validation', 'settings', { path: prefix.replace(/\.$/, ''), reason: 'Settings are an object.' });
  }
  const faults: FaultBody[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const path = `${prefix}${name}`;
    if (name === 'scriptHttpHosts') {
      // The hosts scripts' require('http') may call (issue 40): host or host:port, exact.
      if (
        !Array.isArray(value) ||
        value.length > 100 ||
        !value.every((h) => typeof h === 'string' && HTTP_HOST.test(h))
      ) {
        faults.push(
          makeFault('validation', 'invalidType', { path, reason: `${name} must be a list of host or host:port.` }),
        );
      } else out[name] = value;
      continue;
    }
    if (sameAsHere && Object.hasOwn(NOT_EXPORTED_SETTINGS, name)) {
      const key = name as keyof typeof NOT_EXPORTED_SETTINGS;
      if (!sameAsHere(key, value)) {
        const reason = `${name} ${NOT_EXPORTED_SETTINGS[key]}; the value given differs from this org's (an export made before ${name} was left out of env: export again).`;
        faults.push(makeFault('validation', 'notImportable', { path, reason }));
      }
      continue;
    }
    if (!isSettable(name)) {
      faults.push(makeFault('validation', 'unknownProperty', { path, reason: `${name} is not an org setting.` }));
      continue;
    }
    const problem = problemOf(name, value);
    if (problem) faults.push(makeFault('validation', problem.detail, { path, reason: `${name} ${problem.reason}.` }));
    else out[name] = value;
  }
  if (faults.length > 0) {
    const reason = `The org settings are not valid: ${faults.map((f) => f.reason).join(' ')}`;
    throw fault('validation', 'settings', { faults, reason, path: faults[0]!.path! });
  }
  return out as Partial<OrgSettings>;
}

/**
 * Settings as stored, each invalid value replaced by its default: a value written before the
 * validator held (a `lockAttempts` of null locked every login) must not keep an org unusable.
 */
export function storedOrgSettings(stored: Record<string, unknown>): OrgSettings {
  const settings: Record<string, unknown> = { ...DEFAULT_ORG_SETTINGS, ...stored };
  for (const name of SETTABLE_ORG_SETTINGS) {
    if (problemOf(name, settings[name]) !== undefined) settings[name] = DEFAULT_ORG_SETTINGS[name];
  }
  return settings as unknown as OrgSettings;
}
