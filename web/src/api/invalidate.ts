import type { QueryClient } from '@tanstack/react-query';

/** Route paths whose cached answers a change makes stale (keys are `[method, path, params, query]`). */
export function invalidateApiPaths(queryClient: QueryClient, paths: readonly string[]): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: ({ queryKey }) => {
      const path = queryKey[1];
      return typeof path === 'string' && paths.some((p) => path === p || path.startsWith(`${p}/`));
    },
  });
}

/** Answers a funder, member or password change can alter: funders, their members and Our Members. */
export const invalidateAccountData = (queryClient: QueryClient): Promise<void> =>
  invalidateApiPaths(queryClient, ['/api/accounts', '/api/users', '/api/members']);
