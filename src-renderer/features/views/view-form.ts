/**
 * The view editor's form state and its translation to and from a view record, plus where the
 * service's fault on save belongs: the service validates (query parser, ranges, acl targets) and
 * names the spot in `path` (`query[0].value`, `limit`, `acl[1].target`); the form shows it there.
 */
import type { ViewAclEntry, ViewDraft, ViewRange, ViewRecord } from '../../api/views';

export interface RangeForm {
  settable: boolean;
  defaultValue: string;
  min: string;
  max: string;
}

export interface ViewForm {
  name: string;
  label: string;
  description: string;
  sourceObject: string;
  principal: string;
  active: boolean;
  where: string;
  sort: string;
  limit: RangeForm;
  skip: RangeForm;
  pathsSettable: boolean;
  pathsDefault: string;
  pathsLimitTo: string;
  /** One entry a line: `role <code or _id>` or `account <_id or *>`. */
  acl: string;
}

export type FormField = keyof ViewForm;

const num = (n: number | undefined) => (n === undefined || n === null ? '' : String(n));
const rangeForm = (r: ViewRange | undefined): RangeForm => ({
  settable: r?.settable === true,
  defaultValue: num(r?.defaultValue),
  min: num(r?.min),
  max: num(r?.max),
});

export function emptyForm(sourceObject = ''): ViewForm {
  return {
    name: '',
    label: '',
    description: '',
    sourceObject,
    principal: '',
    active: true,
    where: '',
    sort: '',
    limit: { settable: true, defaultValue: '25', min: '1', max: '100' },
    skip: { settable: true, defaultValue: '', min: '', max: '' },
    pathsSettable: false,
    pathsDefault: '',
    pathsLimitTo: '',
    acl: '',
  };
}

export function formOf(view: ViewRecord): ViewForm {
  const component = (name: string) => view.query?.find((q) => q.name === name)?.value ?? '';
  return {
    name: view.name,
    label: view.label ?? '',
    description: view.description ?? '',
    sourceObject: view.sourceObject,
    principal: view.principal ?? '',
    active: view.active !== false,
    where: component('where'),
    sort: component('sort'),
    limit: rangeForm(view.limit),
    skip: rangeForm(view.skip),
    pathsSettable: view.paths?.settable === true,
    pathsDefault: (view.paths?.defaultValue ?? []).join(', '),
    pathsLimitTo: (view.paths?.limitTo ?? []).join(', '),
    acl: (view.acl ?? []).map((a) => `${a.type} ${a.target}`).join('\n'),
  };
}

/** Text that is not a whole number stays as typed so the service names it (no silent fixes). */
const toNumber = (text: string): number | undefined => {
  const t = text.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : (t as unknown as number);
};

function rangeOf(form: RangeForm): ViewRange {
  const range: ViewRange = { settable: form.settable };
  for (const key of ['defaultValue', 'min', 'max'] as const) {
    const value = toNumber(form[key]);
    if (value !== undefined) range[key] = value;
  }
  return range;
}

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

export function aclOf(text: string): ViewAclEntry[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [type = '', ...rest] = line.split(/\s+/);
      return { type: type as ViewAclEntry['type'], target: rest.join(' ') };
    });
}

/** The record to save, and which form field each `query[i]` entry came from. */
export function draftOf(form: ViewForm): { draft: ViewDraft; queryFields: FormField[] } {
  const query: ViewDraft['query'] = [];
  const queryFields: FormField[] = [];
  for (const name of ['where', 'sort'] as const) {
    if (form[name].trim() !== '') {
      query.push({ name, value: form[name].trim() });
      queryFields.push(name);
    }
  }
  const paths: ViewDraft['paths'] = { settable: form.pathsSettable };
  if (list(form.pathsDefault).length > 0) paths.defaultValue = list(form.pathsDefault);
  if (list(form.pathsLimitTo).length > 0) paths.limitTo = list(form.pathsLimitTo);
  const draft: ViewDraft = {
    name: form.name.trim(),
    label: form.label.trim(),
    description: form.description.trim(),
    sourceObject: form.sourceObject,
    principal: form.principal.trim() === '' ? null : form.principal.trim(),
    active: form.active,
    limit: rangeOf(form.limit),
    skip: rangeOf(form.skip),
    paths,
    acl: aclOf(form.acl),
    query,
  };
  return { draft, queryFields };
}

/** The form field a fault's `path` names, or undefined when it names none (shown above the form). */
export function fieldOfFault(path: string | undefined, queryFields: FormField[]): FormField | undefined {
  if (!path) return undefined;
  const query = /^query\[(\d+)\]/.exec(path);
  if (query) return queryFields[Number(query[1])];
  if (/^(where|sort)\b/.test(path)) return path.startsWith('where') ? 'where' : 'sort';
  const head = /^[A-Za-z]+/.exec(path)?.[0];
  if (head === 'paths') return path.includes('limitTo') ? 'pathsLimitTo' : 'pathsDefault';
  const known: FormField[] = ['name', 'label', 'description', 'sourceObject', 'principal', 'limit', 'skip', 'acl'];
  return known.find((f) => f === head);
}
