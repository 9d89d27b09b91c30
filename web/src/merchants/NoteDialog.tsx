import { Button, Dialog, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { type NoteView, routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { useApiMutation } from '../api/hooks.ts';
import { idempotencyKeys } from '../api/idempotency.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { showError, showSuccess } from '../ui/toaster.ts';
import { useForm } from '../ui/use-form.ts';
import { useReturnFocus } from '../ui/use-return-focus.ts';
import { NoteFieldsForm } from './NoteFieldsForm.tsx';
import {
  categoryChoices,
  emptyNoteValues,
  NOTE_LABELS,
  type NoteFormValues,
  noteBody,
  noteValuesOf,
  validateNote,
  validateOnBehalfOf,
} from './note-form.ts';
import { OnBehalfOfField } from './OnBehalfOfField.tsx';
import { invalidateMerchantData } from './queries.ts';
import { serverFieldErrors } from './server-fields.ts';

export type NoteDialogMode =
  /** `draft`: a note typed elsewhere (Add Merchant, when the EIN turned out to exist) to carry on with. */
  { kind: 'add'; merchantId: string; draft?: NoteFormValues } | { kind: 'edit'; note: NoteView };

/** The Add Note and Edit Note dialog (core spec §2). */
export function NoteDialog({ mode, onClose }: { mode: NoteDialogMode | null; onClose: () => void }) {
  const title = mode?.kind === 'edit' ? 'Edit Note' : 'Add Note';
  const returnFocus = useReturnFocus(mode !== null);
  return (
    <Dialog
      {...returnFocus}
      isOpen={mode !== null}
      onClose={onClose}
      title={title}
      icon={mode?.kind === 'edit' ? 'edit' : 'annotation'}
      className="mrn-dialog-wide"
      canOutsideClickClose={false}
    >
      {mode && <NoteDialogForm mode={mode} onClose={onClose} />}
    </Dialog>
  );
}

function NoteDialogForm({ mode, onClose }: { mode: NoteDialogMode; onClose: () => void }) {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const form = useForm(() =>
    mode.kind === 'edit' ? noteValuesOf(mode.note) : (mode.draft ?? emptyNoteValues()),
  );
  const initialCategory = mode.kind === 'edit' ? noteValuesOf(mode.note).category : '';
  // Non-admins may add a Default Satisfied note but never pick it while editing (core spec §5); a
  // locked note is not editable at all.
  const categories = useMemo(
    () => categoryChoices(user.is_dm_admin, initialCategory, mode.kind === 'edit' ? 'edit' : 'add'),
    [user.is_dm_admin, initialCategory, mode.kind],
  );
  const [onBehalfOf, setOnBehalfOf] = useState('');
  const [onBehalfOfTouched, setOnBehalfOfTouched] = useState(false);
  const keyFor = useRef(idempotencyKeys()).current;

  const onError = (error: {
    status: number;
    message: string;
    body: Parameters<typeof serverFieldErrors>[0];
  }) => {
    if (error.status === 400) form.setServerErrors(serverFieldErrors(error.body, 'note', NOTE_LABELS));
    if (error.status !== 401) showError(error.message);
  };
  const done = (message: string) => {
    showSuccess(message);
    void invalidateMerchantData(queryClient);
    onClose();
  };
  const add = useApiMutation(routes.addNote, { onSuccess: () => done('Note added.'), onError });
  const update = useApiMutation(routes.updateNote, { onSuccess: () => done('Note updated.'), onError });
  const saving = add.isPending || update.isPending;

  const errors = validateNote(form.values, categories);
  const onBehalfOfError =
    mode.kind === 'add' && user.is_dm_admin ? validateOnBehalfOf(onBehalfOf) : undefined;
  const isValid = Object.keys(errors).length === 0 && !onBehalfOfError;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.touchAll();
    setOnBehalfOfTouched(true);
    if (!event.currentTarget.reportValidity() || !isValid || saving) return;
    const note = noteBody(form.values);
    if (mode.kind === 'edit') {
      update.mutate({ params: { id: mode.note.id }, body: { note } });
      return;
    }
    const body = { note, proxied_creator: user.is_dm_admin && onBehalfOf.trim() ? onBehalfOf.trim() : null };
    add.mutate({
      params: { id: mode.merchantId },
      body,
      headers: { 'Idempotency-Key': keyFor(body) },
    });
  };

  return (
    <form onSubmit={submit} aria-label={mode.kind === 'edit' ? 'Edit note' : 'Add note'}>
      <DialogBody>
        <NoteFieldsForm
          idPrefix="note-dialog"
          form={form}
          categories={categories}
          disabled={saving}
          autoFocus
        />
        {mode.kind === 'add' && user.is_dm_admin && (
          <OnBehalfOfField
            id="note-dialog-on-behalf-of"
            value={onBehalfOf}
            onValueChange={setOnBehalfOf}
            onBlur={() => setOnBehalfOfTouched(true)}
            error={onBehalfOfTouched ? onBehalfOfError : undefined}
            disabled={saving}
          />
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} disabled={saving} />
            <Button type="submit" intent={Intent.PRIMARY} text="Save" disabled={!isValid} loading={saving} />
          </>
        }
      />
    </form>
  );
}
