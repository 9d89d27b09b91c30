import { routes } from '@mrn/contracts';
import type { QueryClient } from '@tanstack/react-query';

/**
 * Read paths whose answers a merchant or note change can alter (searches are left alone: each is
 * recorded); a funder's contribution too, so its banner goes once new records bring the figure back.
 */
const MERCHANT_READ_PATHS = [
  '/api/merchants',
  '/api/notes',
  '/api/reported_notes',
  '/api/deleted_merchants',
  routes.getAccountContribution.path,
];

const pathOf = (queryKey: readonly unknown[]): string | null =>
  typeof queryKey[1] === 'string' ? queryKey[1] : null;
const idOf = (queryKey: readonly unknown[]): unknown => (queryKey[2] as { id?: unknown } | null)?.id;

/**
 * Marks every merchant and note answer stale after a change; the ones on screen load again at once.
 * After a merchant is archived its own detail and notes are only marked stale, not asked again while
 * its page is still on screen (they would answer 404); a later visit loads them afresh.
 */
export async function invalidateMerchantData(
  queryClient: QueryClient,
  { archivedMerchantId }: { archivedMerchantId?: string } = {},
): Promise<void> {
  const isArchivedMerchant = (queryKey: readonly unknown[]) =>
    archivedMerchantId !== undefined &&
    pathOf(queryKey)?.startsWith('/api/merchants/:id') === true &&
    idOf(queryKey) === archivedMerchantId;
  if (archivedMerchantId)
    await queryClient.invalidateQueries({
      predicate: ({ queryKey }) => isArchivedMerchant(queryKey),
      refetchType: 'none',
    });
  await queryClient.invalidateQueries({
    predicate: ({ queryKey }) => {
      const path = pathOf(queryKey);
      return (
        path !== null && !isArchivedMerchant(queryKey) && MERCHANT_READ_PATHS.some((p) => path.startsWith(p))
      );
    },
  });
}
