import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import '@picocss/pico/css/pico.min.css';
import './styles.css';
import { App } from './app';
import { onUnauthorized } from './api/http';
import { ME_KEY } from './api/session';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 10_000, retry: (count, err) => count < 2 && !(err instanceof Error && 'status' in err && Number((err as { status: number }).status) < 500), refetchOnWindowFocus: false },
  },
});
// A 401 anywhere means the session ended: back to the sign-in page (what was typed in forms is lost).
onUnauthorized(() => queryClient.setQueryData(ME_KEY, null));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
