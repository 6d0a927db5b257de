/**
 * A view's declared variables (docs/views.md#variables): for a `{{name}}` its components use, a
 * default (the argument as a caller would type it, `/^Sm/`) and a description in words. A run
 * without the argument takes the default; the description is for people (the console's run form).
 *
 * Checked on save, so a declared default always runs: each name must be one the components use
 * (a typo would otherwise be a default nobody takes), once; each default is filled into the
 * components and parsed as a run would parse it, and a default that breaks the query is refused at
 * its own spot (`variables[i].defaultValue`).
 */
import { fault, FaultError } from '../../../src-shared/faults.js';
import type { Json } from '../objects/validate.js';
import { fillSome, type Template } from './template.js';

export interface ViewVariable {
  name: string;
  defaultValue?: string;
  description?: string;
}

/** A component (`where` or `sort`) and how a run parses its filled tree (throws a fault when it does not parse). */
export interface VariableComponent {
  template: Template;
  parse: (tree: unknown) => void;
}

/** The declared variables of a view document, checked against its components; faults are `validation.view`. */
export function declaredVariables(raw: Json | undefined, components: VariableComponent[]): ViewVariable[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalid('variables', 'variables is a list of {name, defaultValue, description}.');
  const used = new Set(components.flatMap((c) => c.template.variables));
  const out: ViewVariable[] = [];
  raw.forEach((item, i) => {
    const v = (item ?? {}) as Record<string, Json>;
    const name = v.name;
    if (typeof name !== 'string' || !used.has(name)) {
      const known = used.size > 0 ? `: ${[...used].join(', ')}` : ' (the view uses none)';
      throw invalid(`variables[${i}].name`, `${String(name)} is not a variable of the view's components${known}.`);
    }
    if (out.some((o) => o.name === name)) throw invalid(`variables[${i}].name`, `${name} is declared twice.`);
    const declared: ViewVariable = { name };
    if (typeof v.defaultValue === 'string') {
      declared.defaultValue = v.defaultValue;
      checkDefault(components, name, v.defaultValue, `variables[${i}].defaultValue`);
    }
    if (typeof v.description === 'string' && v.description !== '') declared.description = v.description;
    out.push(declared);
  });
  return out;
}

/**
 * The arguments of one run: the request's, and for each declared variable the request leaves out,
 * its default. A new object every run, so one run's defaults never reach another's arguments.
 */
export function argumentsWithDefaults(
  variables: readonly ViewVariable[] | undefined,
  args: Record<string, unknown>,
): Record<string, unknown> {
  if (!variables || !variables.some((v) => v.defaultValue !== undefined && args[v.name] === undefined)) return args;
  const out: Record<string, unknown> = { ...args };
  for (const v of variables)
    if (v.defaultValue !== undefined && out[v.name] === undefined) out[v.name] = v.defaultValue;
  return out;
}

/**
 * Parses every component that uses `name` with the default filled in and the other variables
 * standing in as null (or '' inside a longer string), as the save check of the components does;
 * a fault outside another variable's own spot is the default's.
 */
function checkDefault(components: VariableComponent[], name: string, value: string, path: string): void {
  for (const { template, parse } of components) {
    if (!template.variables.includes(name)) continue;
    try {
      parse(fillSome(template, { [name]: value }));
    } catch (err) {
      if (!(err instanceof FaultError)) throw err;
      const at = err.fault.path;
      const others = template.locations.filter((l) => l.name !== name);
      if (at && others.some((l) => at.startsWith(l.path))) continue;
      const why = err.fault.reason ?? err.fault.message;
      throw invalid(path, `The default ${JSON.stringify(value)} of ${name} is not a valid argument: ${why}`);
    }
  }
}

function invalid(path: string, reason: string): FaultError {
  return fault('validation', 'view', { path, reason });
}
