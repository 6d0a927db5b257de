/**
 * Roles (`/roles`): `{name, code, scopes: [chains], include: [role ids]}`. Built-in roles have fixed
 * ids; they can be edited but the console does not offer to delete them.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrgClient } from './org-client';
import { normalizeList, type Account, type ListEnvelope, type ListPage, type ResultEnvelope } from './types';

export interface Role {
  _id: string;
  object: 'role';
  name: string;
  code?: string;
  scopes?: string[];
  include?: string[];
  created?: string;
  updated?: string;
}

export interface RoleDraft {
  name: string;
  code: string;
  scopes: string[];
  include: string[];
}

/** The built-in Administrator role: holding it (directly or through `include`) makes an org administrator. */
export const ADMINISTRATOR_ROLE_ID = '000000000000000000000004';

export const BUILTIN_ROLE_IDS: Readonly<Record<string, string>> = {
  [ADMINISTRATOR_ROLE_ID]: 'administrator',
  '000000000000000000000005': 'provider',
  '000000000000000000000006': 'support',
  '000000000000000000000007': 'developer',
};

export function isBuiltinRole(id: string): boolean {
  return id in BUILTIN_ROLE_IDS;
}

export const rolesKey = (org: string) => ['org', org, 'roles'] as const;

export function rolesQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: rolesKey(orgClient.org),
    queryFn: async ({ signal }): Promise<Role[]> => {
      const list = await orgClient.get<ListEnvelope<Role>>('roles', {
        signal,
        query: { limit: 1000, sort: { name: 1 } },
      });
      return list.data;
    },
  });
}

/**
 * Every role the given ids reach through `include` (each visited once, so cycles are harmless),
 * with the scope chains they carry in first-seen order — the service's own resolution.
 */
export function resolveRoleScopes(
  roles: readonly Role[],
  roleIds: readonly string[],
): { roles: Role[]; scopes: { chain: string; role: Role }[] } {
  const byId = new Map(roles.map((role) => [role._id, role]));
  const seen = new Set<string>();
  const reached: Role[] = [];
  const scopes: { chain: string; role: Role }[] = [];
  const chains = new Set<string>();
  const pending = [...roleIds].reverse();
  while (pending.length > 0) {
    const id = pending.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const role = byId.get(id);
    if (!role) continue;
    reached.push(role);
    for (const chain of role.scopes ?? []) {
      if (!chains.has(chain)) {
        chains.add(chain);
        scopes.push({ chain, role });
      }
    }
    pending.push(...[...(role.include ?? [])].reverse().filter((next) => !seen.has(next)));
  }
  return { roles: reached, scopes };
}

export function useSaveRole(orgClient: OrgClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, draft }: { id: string | null; draft: RoleDraft }) =>
      id === null
        ? orgClient.post<Role>('roles', draft)
        : orgClient.request<Role>('PATCH', `roles/${id}`, { body: draft }),
    // Put the saved role in the cached list at once, so the editor that follows finds it.
    onSuccess: (saved) =>
      queryClient.setQueryData<Role[]>(rolesKey(orgClient.org), (list) =>
        list ? [...list.filter((role) => role._id !== saved._id), saved] : list,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rolesKey(orgClient.org) }),
  });
}

export function useDeleteRole(orgClient: OrgClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => orgClient.request<ResultEnvelope<unknown>>('DELETE', `roles/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rolesKey(orgClient.org) }),
  });
}

/** How many members a role's list shows at most; the total is counted separately (`roleMembersWhere`). */
export const ROLE_MEMBERS_SHOWN = 50;

/** The accounts holding a role directly. */
export const roleMembersWhere = (roleId: string) => ({ roles: { $in: [roleId] } });

/** The accounts holding a role directly (the first ROLE_MEMBERS_SHOWN by email), for the role's Members list. */
export function roleMembersQuery(orgClient: OrgClient, roleId: string) {
  return queryOptions({
    queryKey: [...rolesKey(orgClient.org), 'members', roleId] as const,
    queryFn: async ({ signal }): Promise<ListPage<Account>> =>
      normalizeList(
        await orgClient.get<ListEnvelope<Account>>('accounts', {
          query: {
            where: roleMembersWhere(roleId),
            paths: ['email', 'name'],
            sort: { email: 1 },
            limit: ROLE_MEMBERS_SHOWN,
          },
          signal,
        }),
      ),
    staleTime: 0,
  });
}
