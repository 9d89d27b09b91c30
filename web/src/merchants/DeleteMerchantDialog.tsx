import { routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useApiMutation } from '../api/hooks.ts';
import { showError, showSuccess } from '../ui/toaster.ts';
import { displayEin } from './format.ts';
import { invalidateMerchantData } from './queries.ts';
import { ReasonDialog } from './ReasonDialog.tsx';
import { serverFieldErrors } from './server-fields.ts';

export interface MerchantToDelete {
  resource_id: string;
  legal_name: string;
  fein: string;
}

/** Delete Merchant (platform administrators): archived with a reason, it moves to deleted merchants. */
export function DeleteMerchantDialog({
  merchant,
  onClose,
  onDeleted,
}: {
  merchant: MerchantToDelete | null;
  onClose: () => void;
  onDeleted?: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const archive = useApiMutation(routes.archiveMerchant, {
    onSuccess: (answer) => {
      const id = answer.data.resource_id;
      showSuccess('Merchant deleted.');
      onClose();
      onDeleted?.(id);
      void invalidateMerchantData(queryClient, { archivedMerchantId: id });
    },
    onError: (error) => {
      if (error.status !== 401) showError(error.message);
    },
  });
  const serverError =
    archive.error?.status === 400
      ? serverFieldErrors(archive.error.body, 'delete_merchant', { reason: 'Reason for deletion' }).reason
      : undefined;

  return (
    <ReasonDialog
      isOpen={merchant !== null}
      title="Delete Merchant"
      prompt={
        merchant ? (
          <>
            Delete <strong>{merchant.legal_name}</strong> ({displayEin(merchant.fein)})? It leaves search and
            the merchant lists and is kept under Deleted Merchants with its notes.
          </>
        ) : null
      }
      label="Reason for deletion"
      submitText="Delete Merchant"
      saving={archive.isPending}
      serverError={serverError}
      onClose={() => {
        archive.reset();
        onClose();
      }}
      onSubmit={(reason) => {
        if (merchant)
          archive.mutate({ params: { id: merchant.resource_id }, body: { delete_merchant: { reason } } });
      }}
    />
  );
}
