import type { QueryClient } from '@tanstack/react-query';
import { appKeys, type ServiceApp } from '../../api/apps';

/** Puts an app into the cached list; the app passed here never carries a full secret. */
export function storeApp(queryClient: QueryClient, org: string, app: ServiceApp): void {
  queryClient.setQueryData<ServiceApp[]>(appKeys.list(org), (list) => {
    if (!list) return list;
    const index = list.findIndex((a) => a.key === app.key);
    return index === -1 ? [...list, app] : list.map((a) => (a.key === app.key ? app : a));
  });
}
