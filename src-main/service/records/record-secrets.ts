/**
 * What of a record is secret from scripts a write runs on its own behalf (triggers,
 * triggers/run-trigger.ts): an account's `key.secret`, the signing secret of its key. A password
 * is never in a record to begin with: an account's credentials keep its hash apart
 * (accounts/credentials.ts), and a create's body loses `password` before anything sees it
 * (accounts/accounts.ts `prepareAccount`).
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Json } from '../objects/validate.js';

/** `doc` (a presented record) without its secrets; `doc` itself is not changed. */
export function withoutSecrets(def: ObjectDef, doc: Record<string, Json>): Record<string, Json> {
  if (def.name !== 'account') return doc;
  const key = doc.key;
  if (typeof key !== 'object' || key === null || Array.isArray(key) || !('secret' in key)) return doc;
  const { secret: _secret, ...rest } = key;
  return { ...doc, key: rest };
}
