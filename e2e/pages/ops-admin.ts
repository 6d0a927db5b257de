import { objectsApi, type ObjectsApi } from './objects-api';

/** The built-in org administrator role's `_id`. */
const ORG_ADMIN_ROLE = '000000000000000000000004';

/**
 * A second administrator's client for checks while the console is signed in as the first (a
 * sign-in ends the account's other session): created through `api`, then signed in on its own.
 */
export async function opsAdminApi(baseUrl: string, api: ObjectsApi, org = 'demo'): Promise<ObjectsApi> {
  const email = `ops@${org}.test`;
  const password = 'ops password 123';
  const created = await api.send('POST', 'accounts', { email, password, roles: [ORG_ADMIN_ROLE] });
  if (created.status !== 200) throw new Error(`ops admin: ${JSON.stringify(created.body)}`);
  return objectsApi(baseUrl, email, password, org);
}
