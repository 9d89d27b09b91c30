import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  Intent,
  Radio,
  RadioGroup,
} from '@blueprintjs/core';
import {
  DISPUTE_EXPLANATION_MAX,
  DISPUTE_OUTCOME_TEXTS,
  DISPUTE_RESOLUTION_LABELS,
  DISPUTE_RESOLUTIONS,
  type DisputeDetailView,
  type DisputeResolution,
  EXPLAINED_RESOLUTIONS,
  MERCHANT_RESOLUTIONS,
  NOTE_MAX,
  type NoteView,
  routes,
} from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useApiMutation } from '../api/hooks.ts';
import { formatDate } from '../merchants/format.ts';
import { TextAreaField } from '../ui/fields.tsx';
import { showError, showSuccess } from '../ui/toaster.ts';
import { useReturnFocus } from '../ui/use-return-focus.ts';
import { fieldErrorOf, invalidateDisputeData } from './queries.ts';

interface Props {
  dispute: DisputeDetailView;
  /** The live notes of the disputed merchant (to pick the one to archive). */
  notes: NoteView[];
  isOpen: boolean;
  onClose: () => void;
}

const noteLabel = (n: NoteView) =>
  `${n.category} · ${formatDate(n.created_at)} · ${n.note.length > 60 ? `${n.note.slice(0, 60)}…` : n.note}`;

/**
 * Resolving a dispute: choose the outcome, give what it needs, then confirm on a summary of what will
 * change and what the business owner will be told. Nothing is written until the confirmation.
 */
export function ResolveDisputeDialog({ dispute, notes, isOpen, onClose }: Props) {
  const returnFocus = useReturnFocus(isOpen);
  return (
    <Dialog
      {...returnFocus}
      isOpen={isOpen}
      onClose={onClose}
      title="Resolve dispute"
      icon="endorsed"
      className="mrn-dialog-wide"
    >
      {isOpen && <ResolveForm dispute={dispute} notes={notes} onClose={onClose} />}
    </Dialog>
  );
}

function ResolveForm({ dispute, notes, onClose }: Omit<Props, 'isOpen'>) {
  const queryClient = useQueryClient();
  const hasMerchant = dispute.merchant_id !== null;
  const [kind, setKind] = useState<DisputeResolution | ''>('');
  const [noteText, setNoteText] = useState('');
  const [noteId, setNoteId] = useState('');
  const [explanation, setExplanation] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const resolve = useApiMutation(routes.resolveDispute, {
    onSuccess: () => {
      showSuccess('Dispute resolved. The business owner will be e-mailed the outcome.');
      void invalidateDisputeData(queryClient, { merchant: true });
      onClose();
    },
    onError: (error) => {
      setConfirming(false);
      if (error.status !== 401 && error.status !== 400) showError(error.message);
    },
  });

  const server = (field: string) => fieldErrorOf(resolve.error, field, `resolution.${field}`);
  const need = (ok: boolean, text: string) => (touched && !ok ? text : undefined);
  const errors = {
    kind: server('kind') ?? need(kind !== '', 'Choose how the dispute is resolved'),
    note_text:
      server('note_text') ??
      need(kind !== 'dispute_note_added' || noteText.trim() !== '', 'The note is required'),
    note_id: server('note_id') ?? need(kind !== 'note_archived' || noteId !== '', 'Choose the disputed note'),
    explanation:
      server('explanation') ??
      need(
        !EXPLAINED_RESOLUTIONS.includes(kind as DisputeResolution) || explanation.trim() !== '',
        'An explanation is required',
      ),
    merchant_id: server('merchant_id'),
  };
  const valid = !Object.values(errors).some(Boolean) && kind !== '';

  const review = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    const ok =
      kind !== '' &&
      (kind !== 'dispute_note_added' || noteText.trim() !== '') &&
      (kind !== 'note_archived' || noteId !== '') &&
      (!EXPLAINED_RESOLUTIONS.includes(kind) || explanation.trim() !== '');
    if (ok) setConfirming(true);
  };
  const submit = () => {
    if (kind === '') return;
    const touchesMerchant = MERCHANT_RESOLUTIONS.includes(kind);
    resolve.mutate({
      params: { id: dispute.id },
      body: {
        resolution: {
          kind,
          explanation: explanation.trim() || null,
          merchant_id: touchesMerchant ? dispute.merchant_id : null,
          note_id: kind === 'note_archived' ? noteId : null,
          note_text: kind === 'dispute_note_added' ? noteText.trim() : null,
        },
      },
    });
  };
  const chosenNote = notes.find((n) => n.id === noteId);

  if (confirming && kind !== '')
    return (
      <>
        <DialogBody>
          <Callout
            intent={MERCHANT_RESOLUTIONS.includes(kind) ? Intent.WARNING : Intent.PRIMARY}
            icon="info-sign"
            title="Please confirm"
          >
            <p>
              <strong>{DISPUTE_RESOLUTION_LABELS[kind]}</strong>
              {kind === 'note_archived' && chosenNote && <> — {noteLabel(chosenNote)}</>}
              {kind === 'merchant_archived' && (
                <> — {dispute.legal_name} leaves the network for every funder.</>
              )}
            </p>
            <p>The dispute is closed for good; it cannot be resolved again.</p>
          </Callout>
          <h4 className="mrn-dialog-subtitle">E-mail to {dispute.email}</h4>
          <p className="mrn-preserve-lines">
            {DISPUTE_OUTCOME_TEXTS[kind]}
            {explanation.trim() ? `\n\n${explanation.trim()}` : ''}
          </p>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Back" onClick={() => setConfirming(false)} disabled={resolve.isPending} />
              <Button
                intent={Intent.PRIMARY}
                text="Confirm and resolve"
                icon="endorsed"
                loading={resolve.isPending}
                onClick={submit}
                autoFocus
              />
            </>
          }
        />
      </>
    );

  return (
    <form onSubmit={review} noValidate>
      <DialogBody>
        {errors.merchant_id && (
          <Callout intent={Intent.DANGER} icon="error" role="alert">
            Merchant: {errors.merchant_id}
          </Callout>
        )}
        <RadioGroup
          label="Resolution"
          name="dispute-resolution"
          selectedValue={kind}
          onChange={(event) => setKind(event.currentTarget.value as DisputeResolution)}
        >
          {DISPUTE_RESOLUTIONS.map((r) => (
            <Radio
              key={r}
              value={r}
              label={DISPUTE_RESOLUTION_LABELS[r]}
              disabled={MERCHANT_RESOLUTIONS.includes(r) && !hasMerchant}
            />
          ))}
        </RadioGroup>
        {errors.kind && (
          <p className="mrn-error-text" role="alert">
            {errors.kind}
          </p>
        )}
        {!hasMerchant && (
          <p className="mrn-secondary mrn-small">
            No live merchant has this EIN, so the record cannot be changed.
          </p>
        )}
        {kind === 'dispute_note_added' && (
          <TextAreaField
            id="dispute-note-text"
            label="Merchant Dispute note"
            helperText="Added to the merchant; Merchant Dispute notes are seen by platform administrators only."
            value={noteText}
            onValueChange={setNoteText}
            error={errors.note_text}
            maxLength={NOTE_MAX}
            required
          />
        )}
        {kind === 'note_archived' && (
          <FormGroup
            label="Disputed note"
            labelFor="dispute-note-id"
            labelInfo="(required)"
            intent={errors.note_id ? Intent.DANGER : Intent.NONE}
            helperText={errors.note_id ?? 'The note leaves the merchant for every funder.'}
          >
            <HTMLSelect
              id="dispute-note-id"
              value={noteId}
              onChange={(event) => setNoteId(event.target.value)}
              fill
              aria-invalid={errors.note_id ? true : undefined}
            >
              <option value="">
                {notes.length === 0 ? 'The merchant has no live notes' : 'Choose the note to archive'}
              </option>
              {notes.map((n) => (
                <option key={n.id} value={n.id}>
                  {noteLabel(n)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
        )}
        {kind !== '' && (
          <TextAreaField
            id="dispute-explanation"
            label="Message to the business owner"
            helperText="Sent with the outcome in the resolution e-mail. Internal comments are never sent."
            value={explanation}
            onValueChange={setExplanation}
            error={errors.explanation}
            maxLength={DISPUTE_EXPLANATION_MAX}
            required={EXPLAINED_RESOLUTIONS.includes(kind)}
          />
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} />
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              text="Review and confirm"
              disabled={touched && !valid}
            />
          </>
        }
      />
    </form>
  );
}
