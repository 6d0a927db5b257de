import {
  TRIGGER_EVENTS,
  type RouteMethod,
  type ScriptConfiguration,
  type ScriptDraft,
  type ScriptRecord,
  type ScriptType,
  type TriggerEvent,
} from '../../api/scripts';

/** How a route script takes the request's credentials (README "Route settings"). */
export type AuthValidation = '' | 'legacy' | 'all' | 'none';
export const AUTH_VALIDATIONS: readonly Exclude<AuthValidation, ''>[] = ['legacy', 'all', 'none'];

/**
 * The save form's fields as typed: every property the service keeps for a script (builtin-defs
 * `script`), route settings included. Numbers stay text until checked; '' means "not set".
 */
export interface SaveFields {
  type: ScriptType;
  name: string;
  label: string;
  description: string;
  active: boolean;
  method: RouteMethod;
  path: string;
  priority: string;
  weight: string;
  acl: string[];
  authValidation: AuthValidation;
  apiKey: string;
  principal: string;
  /** A library's module name (`configuration.export`, issue 40); '' = its name. */
  exportName: string;
  /** A trigger's object type (name, or `*` for every type) and event (issue 41). */
  object: string;
  event: TriggerEvent;
  /** An after trigger the writer waits for. */
  inline: boolean;
  /** A job's five-field UTC schedule. */
  cron: string;
}

export const emptySaveFields: SaveFields = {
  type: 'library',
  name: '',
  label: '',
  description: '',
  active: true,
  method: 'get',
  path: '',
  priority: '',
  weight: '',
  acl: [],
  authValidation: '',
  apiKey: '',
  principal: '',
  exportName: '',
  object: '',
  event: 'create.before',
  inline: false,
  cron: '',
};

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const ROUTE_PATH = /^[A-Za-z0-9_:.~*-]+(?:\/[A-Za-z0-9_:.~*-]+)*$/;
const NUMBER = /^-?\d+(\.\d+)?$/;
/** acl entries the service reads (script-routes.ts `aclAllows`). */
export const ACL_ENTRY = /^(anonymous|account\.public|account\.[0-9a-f]{24}|role\.[0-9a-f]{24})$/i;

export type SaveErrors = Partial<Record<keyof SaveFields, string>>;
export type SaveCheck = { ok: true; draft: ScriptDraft } | { ok: false; errors: SaveErrors };

/**
 * Checks the form and builds the record; the service validates again (and checks the syntax).
 * `editing` (the saved record's fields) makes cleared settings explicit: a PATCH replaces
 * `configuration` as a whole, and `weight`/`description` are cleared with null.
 */
export function checkSave(fields: SaveFields, script: string, editing?: SaveFields): SaveCheck {
  const errors: SaveErrors = {};
  const name = fields.name.trim();
  if (!NAME.test(name)) errors.name = 'Letters, digits and _ only, starting with a letter or _.';
  const route = fields.type === 'route';
  const trigger = fields.type === 'trigger';
  const path = normalizeRoutePath(fields.path);
  if (route && !ROUTE_PATH.test(path)) errors.path = 'A path such as hello or patients/:id.';
  if (route && fields.priority.trim() !== '' && !NUMBER.test(fields.priority.trim()))
    errors.priority = 'A number; higher is tried first.';
  if ((route || trigger) && fields.weight.trim() !== '' && !NUMBER.test(fields.weight.trim()))
    errors.weight = route ? 'A number; among equal priorities, higher is tried first.' : 'A number; higher runs first.';
  const badAcl = fields.acl.find((entry) => !ACL_ENTRY.test(entry));
  if (route && badAcl !== undefined) errors.acl = `“${badAcl}” is not an acl entry.`;
  if (trigger && fields.object.trim() === '')
    errors.object = 'The object type whose writes run it (or * for every type).';
  if (trigger && !TRIGGER_EVENTS.includes(fields.event)) errors.event = 'One of the six events.';
  if (fields.type === 'job' && !CRON.test(fields.cron.trim()))
    errors.cron = 'Five fields, UTC: minute hour day-of-month month day-of-week, e.g. */5 * * * *.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const draft: ScriptDraft = {
    label: fields.label.trim() === '' ? name : fields.label.trim(),
    name,
    type: fields.type,
    active: fields.active,
    script,
  };
  const description = fields.description.trim();
  if (description !== '') draft.description = description;
  else if (editing && editing.description !== '') draft.description = null;
  // Routes and triggers are ordered by weight; a type without one clears a weight it had.
  const weight = fields.weight.trim();
  if ((route || trigger) && weight !== '') draft.weight = Number(weight);
  else if (editing && editing.weight !== '') draft.weight = null;
  // A PATCH replaces configuration as a whole: each type writes all of its own.
  if (route) draft.configuration = routeConfiguration(fields, path);
  else if (trigger) draft.configuration = triggerConfiguration(fields);
  else if (fields.type === 'job') draft.configuration = withPrincipal({ cron: fields.cron.trim() }, fields);
  // A library is required by its export name (issue 40): the one it has, else its name.
  else draft.configuration = { export: fields.exportName.trim() || name };
  return { ok: true, draft };
}

/** Five whitespace-separated fields; the service checks each one (croner) on save. */
const CRON = /^\S+(\s+\S+){4}$/;

function withPrincipal(configuration: ScriptConfiguration, fields: SaveFields): ScriptConfiguration {
  return fields.principal.trim() === '' ? configuration : { ...configuration, principal: fields.principal.trim() };
}

function triggerConfiguration(fields: SaveFields): ScriptConfiguration {
  const configuration: ScriptConfiguration = { object: fields.object.trim(), event: fields.event };
  // Before triggers always run in the write; `inline` means something for after triggers only.
  if (fields.inline && fields.event.endsWith('.after')) configuration.inline = true;
  return withPrincipal(configuration, fields);
}

function routeConfiguration(fields: SaveFields, path: string): ScriptConfiguration {
  const configuration: ScriptConfiguration = { method: fields.method, path };
  const priority = fields.priority.trim();
  if (priority !== '') configuration.priority = Number(priority);
  if (fields.acl.length > 0) configuration.acl = fields.acl.map((entry) => entry.toLowerCase());
  if (fields.authValidation !== '') configuration.authValidation = fields.authValidation;
  if (fields.apiKey.trim() !== '') configuration.apiKey = fields.apiKey.trim();
  if (fields.principal.trim() !== '') configuration.principal = fields.principal.trim();
  return configuration;
}

export function normalizeRoutePath(path: string): string {
  return path.trim().replace(/^\/+/, '').replace(/\/+$/, '');
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const numberText = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : '');

/** The form filled from a saved record. */
export function fieldsOf(record: ScriptRecord): SaveFields {
  const c = record.configuration ?? {};
  const auth = AUTH_VALIDATIONS.find((mode) => mode === c.authValidation) ?? '';
  return {
    type: record.type,
    name: text(record.name),
    label: text(record.label),
    description: text(record.description),
    active: record.active !== false,
    method: c.method ?? 'get',
    path: text(c.path),
    priority: numberText(c.priority),
    weight: numberText(record.weight),
    acl: Array.isArray(c.acl) ? c.acl.filter((entry): entry is string => typeof entry === 'string') : [],
    authValidation: auth,
    apiKey: text(c.apiKey),
    principal: text(c.principal),
    exportName: text(c.export),
    object: text(c.object),
    event: TRIGGER_EVENTS.find((event) => event === c.event) ?? 'create.before',
    inline: c.inline === true,
    cron: text(c.cron),
  };
}

/** Whether two forms would save the same record (acl order counts: it is kept as written). */
export function sameFields(a: SaveFields, b: SaveFields): boolean {
  return (Object.keys(a) as (keyof SaveFields)[]).every((key) =>
    key === 'acl' ? a.acl.join('\n') === b.acl.join('\n') : a[key] === b[key],
  );
}

/** The URL a route script answers at; `:params` stay as written. */
export function routeUrl(origin: string, org: string, path: string): string {
  return `${origin}/${encodeURIComponent(org)}/v2/routes/${normalizeRoutePath(path)}`;
}
