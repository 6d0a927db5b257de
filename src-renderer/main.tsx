import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/api-error';
import { ClientProvider } from './api/client-context';
import { ConsoleClient } from './api/console-client';
import { App } from './app/App';
import { applyTheme, initialTheme } from './components/theme';
import './styles/tokens.css';
import './styles/base.css';
import './styles/shell.css';
import './styles/forms.css';
import './styles/grid.css';
import './styles/browser.css';

// Before the first paint, so a dark-theme user never sees a white flash.
applyTheme(initialTheme());

/** Faults with a 4xx status will not change on retry; network trouble and 5xx may. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element.');

createRoot(rootElement).render(
  <StrictMode>
    <ClientProvider client={new ConsoleClient()}>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </ClientProvider>
  </StrictMode>,
);
