import { createContext, useContext, type ReactNode } from 'react';
import type { ConsoleClient } from './console-client';

const ClientContext = createContext<ConsoleClient | null>(null);

export function ClientProvider({ client, children }: { client: ConsoleClient; children: ReactNode }) {
  return <ClientContext value={client}>{children}</ClientContext>;
}

export function useConsoleClient(): ConsoleClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useConsoleClient must be used inside <ClientProvider>.');
  return client;
}
