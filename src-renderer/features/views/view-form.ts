/**
 * The view editor's form state and its translation to and from a view record, plus where the
 * service's fault on save belongs: the service validates (query parser, ranges, acl targets) and
 * names the spot in `path` (`query[0].value`, `limit`, `acl[1].target`); the form shows it there.
 */
import { viewVariables, type ViewAclEntry, type ViewDraft, type ViewRange, type ViewRecord } from '../../api/views';

export interface RangeForm {
  settable: boolean;
  defaultValue: string;
  min: string;
  max: string;
}

/** A variable's default and description as typed; blank is none. */
export interface VariableForm {
  defaultValue: string;
  description: string;
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
  /**
   * By variable name. Kept for names the components no longer use (a variable renamed while
   * typing gets its text back when the name returns); only used names are saved.
   */
  variables: Record<string, VariableForm>;
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
    variables: {},
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
    variables: Object.fromEntries(
      (view.variables ?? []).map((v) => [
        v.name,
        { defaultValue: v.defaultValue ?? '', description: v.description ?? '' },
      ]),
    ),
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
    variables: variablesOf(form.variables, viewVariables({ query })),
  };
  return { draft, queryFields };
}

/**
 * The declared variables to save: those of `used` (the components' variables, in their order) with
 * a default or a description. Always a list, so saving an edit clears what was removed. A default
 * is kept as typed (the service checks it), a description trimmed.
 */
export function variablesOf(variables: ViewForm['variables'], used: string[]): NonNullable<ViewDraft['variables']> {
  const out: NonNullable<ViewDraft['variables']> = [];
  for (const name of used) {
    const v = variables[name];
    const description = v?.description.trim() ?? '';
    if (!v || (v.defaultValue === '' && description === '')) continue;
    out.push({
      name,
      ...(v.defaultValue !== '' ? { defaultValue: v.defaultValue } : {}),
      ...(description !== '' ? { description } : {}),
    });
  }
  return out;
}

/** The variable and its field a fault's `path` names (`variables[1].defaultValue`), given the saved list. */
export function variableOfFault(
  path: string | undefined,
  saved: ViewDraft['variables'],
): { name: string; field: keyof VariableForm | 'name' } | undefined {
  const m = /^variables\[(\d+)\](?:\.(\w+))?/.exec(path ?? '');
  const name = m ? saved?.[Number(m[1])]?.name : undefined;
  if (!m || name === undefined) return undefined;
  const field = m[2] === 'description' || m[2] === 'defaultValue' ? m[2] : 'name';
  return { name, field };
}

/** The form field a fault's `path` names, or undefined when it names none (shown above the form). */
export function fieldOfFault(path: string | undefined, queryFields: FormField[]): FormField | undefined {
  if (!path) return undefined;
  const query = /^query\[(\d+)\]/.exec(path);
  if (query) return queryFields[Number(query[1])];
  if (/^(where|sort)\b/.test(path)) return path.startsWith('where') ? 'where' : 'sort';
  const head = /^[A-Za-z]+/.exec(path)?.[0];
  if (head === 'paths') return path.includes('limitTo') ? 'pathsLimitTo' : 'pathsDefault';
  const known: FormField[] = [
    'name',
    'label',
    'description',
    'sourceObject',
    'principal',
    'limit',
    'skip',
    'acl',
    'variables',
  ];
  return known.find((f) => f === head);
}
