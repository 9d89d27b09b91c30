import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/api-error.ts';
import { showError } from '../ui/toaster.ts';

const MAX_RETRIES = 2;

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: QueryMeta;
    mutationMeta: QueryMeta;
  }
}

export interface QueryMeta extends Record<string, unknown> {
  /**
   * Show the failure in a persistent error toast (core spec §8: merchant, note and archive calls).
   * A 401 never toasts: it ends the session instead.
   */
  errorToast?: boolean;
  /** Statuses the screen explains itself (a 404 shows "not found" in place), so no toast. */
  quietStatuses?: readonly number[];
}

const toastFailure = (error: unknown, meta: QueryMeta | undefined) => {
  if (!meta?.errorToast) return;
  if (error instanceof ApiError && (error.status === 401 || meta.quietStatuses?.includes(error.status)))
    return;
  showError(error instanceof Error ? error.message : String(error));
};

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => toastFailure(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => toastFailure(error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
        // A 4xx answer will not change on retry; network and server errors may.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.isClientError) && failureCount < MAX_RETRIES,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}
