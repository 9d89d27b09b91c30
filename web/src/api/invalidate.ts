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
