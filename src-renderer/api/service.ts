import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleClient } from './console-client';
import { useConsoleClient } from './client-context';
import { queryKeys } from './query-keys';
import type { Account, SetupRequest } from './types';

export function serviceInfoQuery(client: ConsoleClient) {
  return queryOptions({
    queryKey: queryKeys.serviceInfo(),
    queryFn: ({ signal }) => client.getServiceInfo(signal),
    staleTime: Infinity,
  });
}

/**
 * First-run setup: creates the org and its admin, then signs that admin in, so the user lands on
 * the console without typing the password twice.
 */
export function useSetupMutation() {
  const client = useConsoleClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: SetupRequest) => {
      const created = await client.setup(request);
      const orgClient = client.org({ code: created.org, consoleAppKey: created.consoleAppKey });
      const account = await orgClient.post<Account>('accounts/login', {
        email: request.email,
        password: request.password,
      });
      return { ...created, account };
    },
    onSuccess: ({ org, account }) => {
      queryClient.setQueryData(queryKeys.session(org), { loggedin: true, account });
      // The status also says whether the account is the operator (the first org's administrator is).
      void queryClient.invalidateQueries({ queryKey: queryKeys.session(org) });
    },
    // Also after a failure: if the org was created but the sign-in failed, the service no longer
    // needs setup and the console must move on to the login screen.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.serviceInfo() }),
  });
}
