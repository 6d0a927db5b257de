/**
 * A configured policy: the original's org configuration policy (`org.policies`), as mdctl exports
 * and imports it (`env/policies/<name>.json`, a `policy` document; docs/scripting.md#policies).
 * Read by the same `readPolicy` as a library's `@policy` and enforced from the same table
 * (policy-table.ts): the only differences are where it lives (policy-store.ts) and that its Script
 * action runs the document's `script` text rather than a decorated method.
 *
 * Trust boundary: the document comes from an import (a file an administrator chose, or another
 * org's deployment); every option is checked here before it is stored, and an option this service
 * does not apply is refused by name, never stored and ignored.
 */
import { FaultError, fault } from '../../../src-shared/faults.js';
import type { StaticValue } from '../scripting/language/static-value.js';
import { assertScriptCompiles } from '../scripting/script-rules.js';
import { checkOptionNames, readPolicy, type PolicyDef } from './policy-def.js';

/** The original's export keys: names are `c_` or namespaced (`ns__name`), as mdctl's template checks. */
export const POLICY_NAME_PATTERN = /^[a-z][a-zA-Z0-9_]{0,62}(__[a-zA-Z0-9_]{1,62})?$/;
const MAX_SCRIPT_CHARS = 50_000;

/** The id a configured policy has in the org's table (and in `admin policy` listings). */
export const configuredPolicyId = (name: string) => `configuration:${name}`;

/**
 * The policy a `policy` document declares (without `object` and `resource`); throws a
 * `validation.policy` fault naming the option (an import names the resource, `policy.<name>`).
 */
export function configuredPolicyOf(name: string, doc: Record<string, unknown>): PolicyDef {
  const fail = (reason: string) => fault('validation', 'policy', { reason });
  if (!POLICY_NAME_PATTERN.test(name)) {
    throw fail('a policy name is letters, digits and _ (c_name or ns__name), starting with a letter, at most 64.');
  }
  if (doc.name !== undefined && doc.name !== name) throw fail(`the document names ${String(doc.name)}.`);
  const c = doc as Record<string, StaticValue>;
  checkOptionNames(c, fail, ['script']);
  const def = readPolicy(c, { id: configuredPolicyId(name), label: name, defaultAction: 'Deny', fail });
  const script = c.script;
  if (def.action !== 'Script') {
    if (script !== undefined && script !== null && script !== '')
      throw fail(`script is run by the Script action only (this policy's action is ${def.action}).`);
    return { ...def, source: 'configuration', libraryId: '' };
  }
  if (typeof script !== 'string' || script.trim() === '' || script.length > MAX_SCRIPT_CHARS) {
    throw fail(`a Script policy needs script: its source, at most ${MAX_SCRIPT_CHARS} characters.`);
  }
  return { ...def, source: 'configuration', libraryId: '', script };
}

/**
 * The check at save (an import): the document reads as a policy and a Script policy's source
 * compiles (the syntax checker must be loaded: records/rules.ts `prepare`). The table's later
 * readings do not compile again: a run that no longer compiles refuses its request (run-policy.ts).
 */
export function checkConfiguredPolicy(name: string, doc: Record<string, unknown>): PolicyDef {
  const def = configuredPolicyOf(name, doc);
  if (def.script === undefined) return def;
  try {
    assertScriptCompiles({ script: def.script });
  } catch (e) {
    if (!(e instanceof FaultError)) throw e;
    throw fault('validation', 'policy', { reason: `script: ${e.fault.reason ?? e.message}` });
  }
  return def;
}
