import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from '../api/query-client.ts';
import { AuthProvider } from '../auth/AuthProvider.tsx';
import { IdleLogoutWatcher } from '../auth/IdleLogoutWatcher.tsx';
import { AppRoutes } from '../routing/AppRoutes.tsx';

const queryClient = createQueryClient();

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AuthProvider>
          <IdleLogoutWatcher />
          <AppRoutes />
        </AuthProvider>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
