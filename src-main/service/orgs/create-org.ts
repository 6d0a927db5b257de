import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { ORG_CODE_PATTERN } from './orgs.js';
import { bootstrapOrg } from '../bootstrap.js';

/** Any JSON object: every member is checked here (a missing one is the same fault as a wrong one). */
export interface NewOrgInput {
  code?: unknown;
  name?: unknown;
  adminEmail?: unknown;
  adminPassword?: unknown;
}

/**
 * Another org in the same data folder, ready to use (definitions, built-in roles, its first
 * administrator, its console app). Everything it gets is its own: apps, tokens and sessions of one
 * org are refused by another (tokens carry the org in `aud` and their app in `iss`).
 */
export async function createOrg(svc: Service, input: NewOrgInput) {
  const { code, name, adminEmail, adminPassword } = input;
  if (typeof code !== 'string' || !ORG_CODE_PATTERN.test(code)) {
    throw fault('invalidArgument', 'org', { path: 'code', reason: 'Org codes are lower-case letters, digits and -.' });
  }
  if (typeof adminEmail !== 'string' || typeof adminPassword !== 'string') {
    throw fault('invalidArgument', 'org', { path: 'adminEmail', reason: 'adminEmail and adminPassword are required.' });
  }
  if (svc.orgs.byCode(code)) throw fault('exists', 'org', { path: 'code', reason: `Org ${code} already exists.` });
  const { org, consoleAppKey } = await bootstrapOrg(svc, {
    code,
    ...(typeof name === 'string' && name !== '' ? { name: name.slice(0, 200) } : {}),
    adminEmail,
    adminPassword,
  });
  return { object: 'org', code: org.code, name: org.name, created: org.created, consoleAppKey };
}
