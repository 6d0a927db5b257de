/**
 * The app settings form as pure functions: a text draft of every setting (docs/orgs-and-apps.md#applications), the
 * same checks the service makes (so most mistakes show before sending), the PATCH of what changed,
 * and the service's child faults mapped back onto fields.
 */
import type { FaultBody } from '../../../src-shared/faults';
import type { AppKind, AppSettings, ServiceApp, TokenAlg } from '../../api/apps';
import { fromUtcInput, toUtcInput } from '../../components/utc-time';

export { fromUtcInput, toUtcInput };

export const AUTH_DURATION = { min: 60, max: 86_400, default: 900 } as const;
export const MAX_TOKENS = { min: 0, max: 100, default: 10 } as const;
export const MAX_LABEL = 100;
export const MAX_LIST_ITEMS = 100;

/** Everything as the inputs hold it: numbers and lists as text, `expires` as a datetime-local value. */
export interface AppDraft {
  label: string;
  enabled: boolean;
  readOnly: boolean;
  /** `YYYY-MM-DDTHH:mm` in UTC, or '' for never. */
  expires: string;
  authDuration: string;
  csrf: boolean;
  allowUnsigned: boolean;
  requireSignatureV2: boolean;
  principalOverride: boolean;
  /** An account id, or '' for the default (anonymous). */
  principalId: string;
  maxTokensPerPrincipal: string;
  expose: boolean;
  alg: TokenAlg;
  /** One entry per line. */
  corsOrigins: string;
  ipAllow: string;
  ipDeny: string;
  /** The original's app name, or '' for none (docs/orgs-and-apps.md#applications). */
  name: string;
  allowNameMapping: boolean;
}

export type AppField = keyof AppDraft;
export type FieldErrors = Partial<Record<AppField, string>>;

/** Settings that only mean something for request signing (the service refuses them otherwise). */
export const SIGNING_ONLY: readonly AppField[] = ['allowUnsigned', 'principalOverride', 'requireSignatureV2'];

export function emptyDraft(): AppDraft {
  return {
    label: '',
    enabled: true,
    readOnly: false,
    expires: '',
    authDuration: String(AUTH_DURATION.default),
    csrf: true,
    allowUnsigned: false,
    requireSignatureV2: false,
    principalOverride: false,
    principalId: '',
    maxTokensPerPrincipal: String(MAX_TOKENS.default),
    expose: false,
    alg: 'PS512',
    corsOrigins: '',
    ipAllow: '',
    ipDeny: '',
    name: '',
    allowNameMapping: false,
  };
}

export function draftFromApp(app: ServiceApp): AppDraft {
  return {
    label: app.label,
    enabled: app.enabled,
    readOnly: app.readOnly,
    expires: app.expires === null ? '' : toUtcInput(app.expires),
    authDuration: String(app.authDuration),
    csrf: app.csrf,
    allowUnsigned: app.allowUnsigned,
    requireSignatureV2: app.requireSignatureV2,
    principalOverride: app.principalOverride,
    principalId: app.principalId ?? '',
    maxTokensPerPrincipal: String(app.maxTokensPerPrincipal),
    expose: app.expose,
    alg: app.alg,
    corsOrigins: app.corsOrigins.join('\n'),
    ipAllow: app.ipAllow.join('\n'),
    ipDeny: app.ipDeny.join('\n'),
    name: app.name ?? '',
    allowNameMapping: app.allowNameMapping ?? false,
  };
}

export function splitLines(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

const OBJECT_ID = /^[0-9a-f]{24}$/;
/** The service's app name rule (apps/settings.ts): an identifier, never shaped like a key. */
const APP_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;
const KEY_SHAPED = /^[A-Za-z0-9]{22}$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9a-f:]+(:(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3})?$/i;

/** `scheme://host[:port]` exactly, as browsers send in the Origin header. */
export function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text;
  } catch {
    return false;
  }
}

/** An IPv4/IPv6 address with an optional CIDR prefix length. */
export function isIpOrCidr(text: string): boolean {
  const [address = '', prefix, extra] = text.split('/');
  if (extra !== undefined) return false;
  const v4 = IPV4.test(address);
  const v6 = !v4 && address.includes(':') && IPV6.test(address) && (address.match(/::/g) ?? []).length <= 1;
  if (!v4 && !v6) return false;
  if (prefix === undefined) return true;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
  return bits >= 0 && bits <= (v4 ? 32 : 128);
}

function integerIn(text: string, min: number, max: number): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,9}$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= min && value <= max ? value : undefined;
}

function listError(text: string, valid: (item: string) => boolean, what: string): string | undefined {
  const items = splitLines(text);
  if (items.length > MAX_LIST_ITEMS) return `At most ${MAX_LIST_ITEMS} entries.`;
  const bad = items.find((item) => !valid(item));
  return bad === undefined ? undefined : `“${bad}” is not ${what}.`;
}

/** The checks of the service's validateAppSettings, per field, in words for the form. */
export function validateAppDraft(draft: AppDraft, kind: AppKind): FieldErrors {
  const errors: FieldErrors = {};
  const label = draft.label.trim();
  if (label === '') errors.label = 'Give the app a name.';
  else if (label.length > MAX_LABEL) errors.label = `At most ${MAX_LABEL} characters.`;
  if (draft.expires !== '' && fromUtcInput(draft.expires) === null) errors.expires = 'Pick a date and time.';
  if (integerIn(draft.authDuration, AUTH_DURATION.min, AUTH_DURATION.max) === undefined) {
    errors.authDuration = `A whole number of seconds from ${AUTH_DURATION.min} to ${AUTH_DURATION.max.toLocaleString('en')}.`;
  }
  if (integerIn(draft.maxTokensPerPrincipal, MAX_TOKENS.min, MAX_TOKENS.max) === undefined) {
    errors.maxTokensPerPrincipal = `A whole number from ${MAX_TOKENS.min} to ${MAX_TOKENS.max}.`;
  }
  const principal = draft.principalId.trim();
  if (principal !== '' && !OBJECT_ID.test(principal)) {
    errors.principalId = 'An account id: 24 lower-case hex characters (empty for anonymous).';
  }
  const name = draft.name.trim();
  if (name !== '' && !APP_NAME.test(name)) {
    errors.name = 'A letter, then up to 99 letters, digits, _ . or - (e.g. c_patient_app).';
  } else if (KEY_SHAPED.test(name)) {
    errors.name = 'Shaped like an app key (22 letters and digits): add a _ . or - so the two cannot be mixed up.';
  }
  if (kind === 'session') {
    for (const field of SIGNING_ONLY) if (draft[field] === true) errors[field] = 'Signing apps only.';
  }
  const cors = listError(draft.corsOrigins, isOrigin, 'an origin such as https://example.org');
  if (cors) errors.corsOrigins = cors;
  const allow = listError(draft.ipAllow, isIpOrCidr, 'an IP address or CIDR range');
  if (allow) errors.ipAllow = allow;
  const deny = listError(draft.ipDeny, isIpOrCidr, 'an IP address or CIDR range');
  if (deny) errors.ipDeny = deny;
  return errors;
}

/** The settings a valid draft stands for (call after validateAppDraft found nothing). */
export function draftToSettings(draft: AppDraft, kind: AppKind): AppSettings {
  return {
    label: draft.label.trim(),
    enabled: draft.enabled,
    readOnly: draft.readOnly,
    expires: draft.expires === '' ? null : fromUtcInput(draft.expires),
    authDuration: Number(draft.authDuration.trim()),
    csrf: draft.csrf,
    allowUnsigned: kind === 'signing' && draft.allowUnsigned,
    requireSignatureV2: kind === 'signing' && draft.requireSignatureV2,
    principalOverride: kind === 'signing' && draft.principalOverride,
    principalId: draft.principalId.trim() === '' ? null : draft.principalId.trim(),
    maxTokensPerPrincipal: Number(draft.maxTokensPerPrincipal.trim()),
    expose: draft.expose,
    alg: draft.alg,
    corsOrigins: [...new Set(splitLines(draft.corsOrigins))],
    ipAllow: [...new Set(splitLines(draft.ipAllow))],
    ipDeny: [...new Set(splitLines(draft.ipDeny))],
    ...(draft.name.trim() === '' ? {} : { name: draft.name.trim() }),
    allowNameMapping: draft.allowNameMapping,
  };
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The PATCH body: only settings that differ from the app. `alg` is left out — it is pinned to the
 * key pair and changes only by regenerating the pair. `expires` compares by the minute, the
 * precision of the input, so an untouched seconds part is not sent back as a change. A name the
 * draft clears is sent as `null` (the service's way to remove it); an absent one is ''.
 */
export function settingsPatch(app: ServiceApp, settings: AppSettings): Partial<AppSettings> {
  const patch: Record<string, unknown> = {};
  for (const name of Object.keys(settings) as (keyof AppSettings)[]) {
    if (name === 'alg') continue;
    if (name === 'name') continue;
    if (name === 'allowNameMapping') {
      if ((app.allowNameMapping ?? false) !== settings.allowNameMapping)
        patch.allowNameMapping = settings.allowNameMapping;
      continue;
    }
    if (name === 'expires') {
      const before = app.expires === null ? '' : toUtcInput(app.expires);
      const after = settings.expires === null ? '' : toUtcInput(settings.expires);
      if (before !== after) patch.expires = settings.expires;
      continue;
    }
    if (!sameValue(app[name], settings[name])) patch[name] = settings[name];
  }
  if ((app.name ?? '') !== (settings.name ?? '')) patch.name = settings.name ?? null;
  return patch as Partial<AppSettings>;
}

/** The form field a service fault path names: `corsOrigins[2]` → `corsOrigins`. */
export function fieldOfPath(path: string | undefined, fields: readonly string[]): AppField | undefined {
  if (path === undefined) return undefined;
  const name = path.replace(/\[\d+\]$/, '');
  return fields.includes(name) ? (name as AppField) : undefined;
}

/** Child faults (and a fault with a `path` itself) put on the fields they name; the rest stays general. */
export function faultsByField(fault: FaultBody): { fields: FieldErrors; unplaced: boolean } {
  const fields: FieldErrors = {};
  const names = Object.keys(emptyDraft());
  let unplaced = false;
  const place = (f: FaultBody) => {
    const field = fieldOfPath(f.path, names);
    if (field === undefined) {
      unplaced = true;
      return;
    }
    fields[field] ??= f.reason ?? f.message;
  };
  if (fault.faults && fault.faults.length > 0) fault.faults.forEach(place);
  else place(fault);
  return { fields, unplaced };
}

/** The mask the service uses for stored secrets (`••••…` + the last four characters). */
export const SECRET_MASK = '••••…';

export function maskSecret(secret: string): string {
  return SECRET_MASK + secret.slice(-4);
}

export function isMaskedSecret(secret: string | null): boolean {
  return secret === null || secret.startsWith(SECRET_MASK);
}

/**
 * Splits the one answer that carries a secret in full (create, rotate) into the app as it may be
 * kept — secret masked, like every later read — and the secret, which only the reveal dialog holds.
 */
export function splitSecret(app: ServiceApp): { app: ServiceApp; secret: string | null } {
  if (isMaskedSecret(app.secret)) return { app, secret: null };
  const secret = app.secret as string;
  return { app: { ...app, secret: maskSecret(secret) }, secret };
}
