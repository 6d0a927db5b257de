import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { FaultBody } from '../../src-shared/faults';
import type { OrgClient } from './org-client';
import { queryKeys } from './query-keys';
import type { Account, Credentials, ResultEnvelope, SessionStatus } from './types';

/** The session as the console knows it; `endedBy` says why a session was lost, for the login screen. */
export interface SessionState extends SessionStatus {
  endedBy?: FaultBody;
}

export function sessionQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: queryKeys.session(orgClient.org),
    queryFn: async ({ signal }): Promise<SessionState> => {
      const status = await orgClient.get<ResultEnvelope<SessionStatus>>('accounts/status', { signal });
      return status.data;
    },
    // The session changes through login/logout/session-end handlers, not by refetching.
    staleTime: Infinity,
  });
}

export function useLoginMutation(orgClient: OrgClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: Credentials) => orgClient.post<Account>('accounts/login', credentials),
    onSuccess: (account) => {
      queryClient.setQueryData<SessionState>(queryKeys.session(orgClient.org), { loggedin: true, account });
      // The status also says whether the account is the operator (the login answer is the account only).
      void queryClient.invalidateQueries({ queryKey: queryKeys.session(orgClient.org) });
    },
  });
}

export function useLogoutMutation(orgClient: OrgClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => orgClient.post<ResultEnvelope<boolean>>('accounts/me/logout'),
    onSuccess: () => {
      orgClient.forgetSession();
      markSignedOut(queryClient, orgClient.org);
    },
  });
}

/** Drops everything cached for the org (other users must not see it) and shows the login screen. */
export function markSignedOut(queryClient: QueryClient, org: string, endedBy?: FaultBody): void {
  queryClient.removeQueries({
    queryKey: queryKeys.org(org),
    predicate: (query) => query.queryKey[2] !== 'session',
  });
  const state: SessionState = endedBy ? { loggedin: false, endedBy } : { loggedin: false };
  queryClient.setQueryData<SessionState>(queryKeys.session(org), state);
  // The login screen's org picker lists every org of the data folder, including any created
  // (by API or CLI) since the console loaded.
  void queryClient.invalidateQueries({ queryKey: queryKeys.serviceInfo() });
}
