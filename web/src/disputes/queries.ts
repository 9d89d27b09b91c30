import type { QueryClient } from '@tanstack/react-query';
import type { ApiError } from '../api/api-error.ts';
import { invalidateApiPaths } from '../api/invalidate.ts';
import { invalidateMerchantData } from '../merchants/queries.ts';

/** After any dispute command: the queue and the dispute (and, after a resolution, the merchant) load again. */
export async function invalidateDisputeData(
  queryClient: QueryClient,
  { merchant = false } = {},
): Promise<void> {
  await invalidateApiPaths(queryClient, ['/api/disputes']);
  if (merchant) await invalidateMerchantData(queryClient);
}

/** A 400's message for one field (the server names it, e.g. `note_id` or `resolution.note_id`). */
export function fieldErrorOf(error: ApiError | null, ...names: string[]): string | undefined {
  if (error?.status !== 400) return undefined;
  return error.body?.fields?.find((f) => names.includes(f.field))?.message;
}
