import { Button, Dialog, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { TextAreaField } from '../ui/fields.tsx';
import { useReturnFocus } from '../ui/use-return-focus.ts';

export const REASON_MAX = 1000;

interface ReasonDialogProps {
  isOpen: boolean;
  title: string;
  prompt: ReactNode;
  label: string;
  submitText: string;
  submitIntent?: Intent;
  saving: boolean;
  /** Server field error for the reason (a 400 answer). */
  serverError?: string;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}

/** A dialog asking for a required reason: deleting a merchant, requesting deletion of a note. */
export function ReasonDialog({ isOpen, onClose, title, ...rest }: ReasonDialogProps) {
  const returnFocus = useReturnFocus(isOpen);
  return (
    <Dialog
      {...returnFocus}
      isOpen={isOpen}
      onClose={rest.saving ? undefined : onClose}
      title={title}
      icon="trash"
    >
      {isOpen && <ReasonForm {...rest} onClose={onClose} />}
    </Dialog>
  );
}

function ReasonForm({
  prompt,
  label,
  submitText,
  submitIntent = Intent.DANGER,
  saving,
  serverError,
  onSubmit,
  onClose,
}: Omit<ReasonDialogProps, 'isOpen' | 'title'>) {
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const trimmed = reason.trim();
  const error = serverError ?? (touched && !trimmed ? `${label} is required` : undefined);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (!event.currentTarget.reportValidity() || !trimmed || saving) return;
    onSubmit(trimmed);
  };

  return (
    <form onSubmit={submit}>
      <DialogBody>
        <p>{prompt}</p>
        <TextAreaField
          id="reason-dialog-reason"
          label={label}
          value={reason}
          onValueChange={setReason}
          onBlur={() => setTouched(true)}
          error={error}
          required
          disabled={saving}
          maxLength={REASON_MAX}
          rows={3}
          autoFocus
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} disabled={saving} />
            <Button
              type="submit"
              intent={submitIntent}
              text={submitText}
              disabled={!trimmed}
              loading={saving}
            />
          </>
        }
      />
    </form>
  );
}
