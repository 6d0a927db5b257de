/**
 * Every write of a library script record (REST, the driver API, scripts, environment import and
 * deployments, the CLI) has its `@policy` declarations read as they will be applied
 * (policy-def.ts): an option this service does not apply, or cannot read, refuses the save with a
 * `validation.script` fault naming the line, the policy and the option.
 */
import type { Service } from '../service.js';
import { recordRules, type RuleInput } from '../records/rules.js';
import { compileScript } from '../scripting/language/compiled-cache.js';
import { policyOf } from './policy-def.js';

const MAX_CHARS = 50_000;

export function assertPolicies(values: Record<string, unknown>, libraryId = ''): void {
  if (values.type !== 'library' || typeof values.script !== 'string' || values.script.length > MAX_CHARS) return;
  // Compiled once per version (the script rule compiled it already): this is a cache lookup.
  const compiled = compileScript(values.script);
  if (!compiled.ok) return;
  for (const reg of compiled.registrations) if (reg.type === 'policy') policyOf(libraryId, reg);
}

/** Registers the check with the records' write path (records/rules.ts); idempotent. */
export function registerPolicyRules(svc: Service): void {
  recordRules(svc).register('script', 'policy-rules', ({ merged, current }: RuleInput) =>
    assertPolicies(merged, current?._id),
  );
}
