import type { QueryClient } from '@tanstack/react-query';
import { invalidateApiPaths } from '../api/invalidate.ts';

/** Answers a funder, member or password change can alter: funders, their members and Our Members. */
export const invalidateAccountData = (queryClient: QueryClient): Promise<void> =>
  invalidateApiPaths(queryClient, ['/api/accounts', '/api/users', '/api/members']);
