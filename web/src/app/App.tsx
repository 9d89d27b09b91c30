import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { AppRoutes } from './AppRoutes.tsx';
import { AuthProvider } from './AuthProvider.tsx';
import { IdleLogoutWatcher } from './IdleLogoutWatcher.tsx';
import { createQueryClient } from './query-client.ts';

const queryClient = createQueryClient();

function Root() {
  return (
    <AuthProvider>
      <IdleLogoutWatcher />
      <AppRoutes />
    </AuthProvider>
  );
}

// A data router around the route tree: only it can hold a navigation back (useBlocker), which a
// half-filled form needs to warn before it is left.
const router = createBrowserRouter([{ path: '*', element: <Root /> }]);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
