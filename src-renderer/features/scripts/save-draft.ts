import type { RouteMethod, ScriptDraft, ScriptRecord, ScriptType } from '../../api/scripts';

/** The save form's fields as typed. */
export interface SaveFields {
  type: ScriptType;
  name: string;
  label: string;
  method: RouteMethod;
  path: string;
}

export const emptySaveFields: SaveFields = { type: 'library', name: '', label: '', method: 'get', path: '' };

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const ROUTE_PATH = /^[A-Za-z0-9_:.~-]+(?:\/[A-Za-z0-9_:.~-]+)*$/;

export type SaveCheck =
  { ok: true; draft: ScriptDraft } | { ok: false; errors: Partial<Record<keyof SaveFields, string>> };

/** Checks the form and builds the record; the service validates again (and checks the syntax). */
export function checkSave(fields: SaveFields, script: string): SaveCheck {
  const errors: Partial<Record<keyof SaveFields, string>> = {};
  const name = fields.name.trim();
  if (!NAME.test(name)) errors.name = 'Letters, digits and _ only, starting with a letter or _.';
  const path = normalizeRoutePath(fields.path);
  if (fields.type === 'route' && !ROUTE_PATH.test(path)) errors.path = 'A path such as hello or patients/:id.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const draft: ScriptDraft = {
    label: fields.label.trim() === '' ? name : fields.label.trim(),
    name,
    type: fields.type,
    active: true,
    script,
  };
  if (fields.type === 'route') draft.configuration = { method: fields.method, path };
  return { ok: true, draft };
}

export function normalizeRoutePath(path: string): string {
  return path.trim().replace(/^\/+/, '').replace(/\/+$/, '');
}

/** The form filled from a saved record. */
export function fieldsOf(record: ScriptRecord): SaveFields {
  return {
    type: record.type,
    name: record.name ?? '',
    label: record.label ?? '',
    method: record.configuration?.method ?? 'get',
    path: record.configuration?.path ?? '',
  };
}

/** The URL a route script answers at; `:params` stay as written. */
export function routeUrl(origin: string, org: string, path: string): string {
  return `${origin}/${encodeURIComponent(org)}/v2/routes/${normalizeRoutePath(path)}`;
}
