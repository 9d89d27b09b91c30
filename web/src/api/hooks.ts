import type { RouteResponse, RouteSpec } from '@mrn/contracts';
import { type UseMutationOptions, type UseQueryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ApiError } from './api-error.ts';
import { type CallArgs, type CallRequest, call } from './client.ts';

type Request<R extends RouteSpec> = Omit<CallRequest<R>, 'signal'>;

/** Cache key of one route call: the route and what identifies the answer (params and query). */
export function apiQueryKey<R extends RouteSpec>(route: R, request?: Omit<Request<R>, 'headers'>) {
  const { params, query } = (request ?? {}) as { params?: unknown; query?: unknown };
  return [route.method, route.path, params ?? null, query ?? null] as const;
}

/** Options for useQuery / queryClient.fetchQuery of one route call. */
export function apiQuery<R extends RouteSpec>(route: R, request?: Request<R>) {
  return {
    queryKey: apiQueryKey(route, request),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      call(route, ...([{ ...request, signal }] as unknown as CallArgs<R>)),
  };
}

type QueryOptions<R extends RouteSpec, T> = Omit<
  UseQueryOptions<RouteResponse<R>, ApiError, T, ReturnType<typeof apiQueryKey<R>>>,
  'queryKey' | 'queryFn'
>;

export function useApiQuery<R extends RouteSpec, T = RouteResponse<R>>(
  route: R,
  request?: Request<R>,
  options?: QueryOptions<R, T>,
) {
  return useQuery<RouteResponse<R>, ApiError, T, ReturnType<typeof apiQueryKey<R>>>({
    ...apiQuery(route, request),
    ...options,
  });
}

export function useApiMutation<R extends RouteSpec, TContext = unknown>(
  route: R,
  options?: Omit<UseMutationOptions<RouteResponse<R>, ApiError, Request<R>, TContext>, 'mutationFn'>,
) {
  return useMutation<RouteResponse<R>, ApiError, Request<R>, TContext>({
    mutationFn: (request) => call(route, ...([request] as unknown as CallArgs<R>)),
    ...options,
  });
}
