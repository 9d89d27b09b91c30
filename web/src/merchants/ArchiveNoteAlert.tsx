import { Alert, Intent } from '@blueprintjs/core';
import { type NoteView, routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useApiMutation } from '../api/hooks.ts';
import { showError, showSuccess } from '../ui/toaster.ts';
import { invalidateMerchantData } from './queries.ts';

/** Platform administrators archive (delete) a note after confirming. */
export function ArchiveNoteAlert({ note, onClose }: { note: NoteView | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const archive = useApiMutation(routes.archiveNote, {
    onSuccess: () => {
      showSuccess('Note archived.');
      void invalidateMerchantData(queryClient);
      onClose();
    },
    onError: (error) => {
      if (error.status !== 401) showError(error.message);
    },
  });
  return (
    <Alert
      isOpen={note !== null}
      intent={Intent.DANGER}
      icon="trash"
      confirmButtonText="Archive Note"
      cancelButtonText="Cancel"
      loading={archive.isPending}
      canEscapeKeyCancel={!archive.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (note) archive.mutate({ params: { id: note.id } });
      }}
    >
      <p>Archive this {note?.category} note? It leaves the merchant's notes for every member.</p>
      {note?.deletion_requested && <p>Its authoring funder asked for it to be deleted.</p>}
    </Alert>
  );
}
