/**
 * Object types whose records only the service writes: script run logs (log-def.ts) and the audit
 * trail (audit-def.ts). Callers read them like any collection; every create, update and delete a
 * caller asks for — REST, the driver API, scripts — is refused by the scope guard
 * (access/scope-guard.ts `requireScope`), which every caller's write passes first. An audit entry
 * nobody can rewrite or remove is what makes it worth keeping; retention prunes both.
 */
export const SERVICE_WRITTEN_TYPES: ReadonlySet<string> = new Set(['log', 'audit']);

export function isServiceWritten(objectName: string): boolean {
  return SERVICE_WRITTEN_TYPES.has(objectName);
}
