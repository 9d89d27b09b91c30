import { type NoteView, routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useApiMutation } from '../api/hooks.ts';
import { showError, showSuccess } from '../ui/toaster.ts';
import { invalidateMerchantData } from './queries.ts';
import { ReasonDialog } from './ReasonDialog.tsx';
import { serverFieldErrors } from './server-fields.ts';

export const DELETION_REQUEST_SENT = 'Note/Record Delete Request Submitted.';

/** Note or Record Deletion Request (core spec §2, §5): members of the authoring funder. */
export function DeletionRequestDialog({ note, onClose }: { note: NoteView | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const request = useApiMutation(routes.requestNoteDeletion, {
    onSuccess: () => {
      showSuccess(DELETION_REQUEST_SENT);
      void invalidateMerchantData(queryClient);
      onClose();
    },
    onError: (error) => {
      if (error.status !== 401) showError(error.message);
    },
  });
  const serverError =
    request.error?.status === 400
      ? serverFieldErrors(request.error.body, 'note', { reason: 'Reason for Deletion' }).reason
      : undefined;

  return (
    <ReasonDialog
      isOpen={note !== null}
      title="Note or Record Deletion Request"
      prompt="Why should this note or record be deleted?"
      label="Reason for Deletion"
      submitText="SUBMIT DELETION REQUEST"
      saving={request.isPending}
      serverError={serverError}
      onClose={() => {
        request.reset();
        onClose();
      }}
      onSubmit={(reason) => {
        // A deletion request needs the note id (core spec §5): the dialog only opens for a note.
        if (note) request.mutate({ params: { id: note.id }, body: { note: { reason } } });
      }}
    />
  );
}
