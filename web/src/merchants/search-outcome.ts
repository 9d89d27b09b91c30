import type { MerchantView } from '@mrn/contracts';

export type SearchOutcome =
  | { kind: 'one'; merchantId: string }
  | { kind: 'several' }
  | { kind: 'none' }
  | { kind: 'failed'; message: string };

/** Where a search goes (core spec §4): one result to its merchant, several to /search, none to the dialog. */
export function searchOutcome(
  answer: { data: Pick<MerchantView, 'resource_id'>[] } | null,
  failure?: { status: number; message: string },
): SearchOutcome {
  if (failure)
    return failure.status === 404 ? { kind: 'none' } : { kind: 'failed', message: failure.message };
  const results = answer?.data ?? [];
  if (results.length === 0) return { kind: 'none' };
  const [only] = results;
  if (results.length === 1 && only) return { kind: 'one', merchantId: only.resource_id };
  return { kind: 'several' };
}
