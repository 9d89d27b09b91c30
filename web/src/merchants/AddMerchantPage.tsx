import { Button, Callout, Card, H2, H4, Intent, Spinner, SpinnerSize } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { apiQuery, useApiMutation } from '../api/hooks.ts';
import { idempotencyKeys } from '../api/idempotency.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { goBack } from '../routing/go-back.ts';
import { merchantPath } from '../routing/paths.ts';
import { showError, showSuccess } from '../ui/toaster.ts';
import { useDocumentTitle } from '../ui/use-document-title.ts';
import { useForm } from '../ui/use-form.ts';
import { useLeaveWarning } from '../ui/use-leave-warning.tsx';
import { draftNoteState } from './draft-note.ts';
import { type ExistingMerchant, MerchantExistsDialog } from './MerchantExistsDialog.tsx';
import { MerchantFieldsForm } from './MerchantFieldsForm.tsx';
import {
  EIN_INPUT_LENGTH,
  emptyMerchantValues,
  MERCHANT_LABELS,
  MERCHANT_MAX,
  merchantBody,
  validateMerchant,
} from './merchant-form.ts';
import { NoteFieldsForm } from './NoteFieldsForm.tsx';
import {
  categoryChoices,
  emptyNoteValues,
  NOTE_LABELS,
  noteBody,
  validateNote,
  validateOnBehalfOf,
} from './note-form.ts';
import { OnBehalfOfField } from './OnBehalfOfField.tsx';
import { invalidateMerchantData } from './queries.ts';
import { serverFieldErrors } from './server-fields.ts';

/** /merchants/new: a merchant with its first note (core spec §2, §4, §5). */
export function AddMerchantPage() {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  useDocumentTitle('Add Merchant');

  // A search that found nothing pre-fills what was searched (core spec §4).
  const [initialMerchant] = useState(() => ({
    ...emptyMerchantValues(searchParams.get('fein') ?? ''),
    legal_name: searchParams.get('legal_name')?.slice(0, MERCHANT_MAX.legal_name) ?? '',
  }));
  const merchant = useForm(initialMerchant);
  const note = useForm(emptyNoteValues);
  const [onBehalfOf, setOnBehalfOf] = useState('');
  const [onBehalfOfTouched, setOnBehalfOfTouched] = useState(false);
  const [onBehalfOfServerError, setOnBehalfOfServerError] = useState<string>();
  const categories = useMemo(() => categoryChoices(user.is_dm_admin), [user.is_dm_admin]);

  // Duplicate check on EIN blur: a found merchant blocks saving while that EIN is in the field.
  const [existing, setExisting] = useState<ExistingMerchant | null>(null);
  const [existsDialogOpen, setExistsDialogOpen] = useState(false);
  const [checkingFein, setCheckingFein] = useState<string | null>(null);
  const checkedFein = useRef<string | null>(null);
  const blocked = existing !== null && existing.fein === merchant.values.fein;

  const keyFor = useRef(idempotencyKeys()).current;
  const typed =
    JSON.stringify(merchant.values) !== JSON.stringify(initialMerchant) ||
    JSON.stringify(note.values) !== JSON.stringify(emptyNoteValues()) ||
    onBehalfOf.trim() !== '';
  const leave = useLeaveWarning(typed, {
    title: 'Leave without saving?',
    body: 'The merchant and note you started are not saved yet and will be lost.',
  });
  // To an existing merchant with the EIN, the note typed so far goes along (Add Note opens with it).
  const carryNote = () => {
    leave.allowLeave();
    return draftNoteState(note.values);
  };
  const add = useApiMutation(routes.addMerchant, {
    onSuccess: (answer) => {
      leave.allowLeave();
      showSuccess('Merchant added.');
      void invalidateMerchantData(queryClient);
      navigate(merchantPath(answer.data.resource_id));
    },
    onError: (error) => {
      const fein = merchant.values.fein;
      if (error.status === 409 && error.body?.resource_id) {
        setExisting({ fein, resourceId: error.body.resource_id, legalName: null });
        setExistsDialogOpen(true);
        return;
      }
      if (error.status === 400) {
        merchant.setServerErrors(serverFieldErrors(error.body, 'merchant', MERCHANT_LABELS));
        note.setServerErrors(serverFieldErrors(error.body, 'note', NOTE_LABELS));
        const proxied = serverFieldErrors(error.body, '', { proxied_creator: 'Add on Behalf of' });
        setOnBehalfOfServerError(proxied.proxied_creator);
      }
      if (error.status !== 401) showError(error.message);
    },
  });

  const checkExists = async () => {
    const fein = merchant.values.fein;
    if (fein.length !== EIN_INPUT_LENGTH || validateMerchant(merchant.values).fein) return;
    if (checkedFein.current === fein) {
      if (blocked) setExistsDialogOpen(true);
      return;
    }
    setCheckingFein(fein);
    try {
      const answer = await queryClient.fetchQuery({
        ...apiQuery(routes.merchantCheckExists, { query: { search: fein } }),
        staleTime: 0,
      });
      checkedFein.current = fein;
      const { resource_id, legal_name } = answer.data;
      if (resource_id) {
        setExisting({ fein, resourceId: resource_id, legalName: legal_name });
        setExistsDialogOpen(true);
      } else setExisting(null);
    } catch {
      // The check is a convenience: the server refuses a duplicate on save anyway (409).
    } finally {
      setCheckingFein((current) => (current === fein ? null : current));
    }
  };

  const merchantErrors = validateMerchant(merchant.values);
  const noteErrors = validateNote(note.values, categories);
  const onBehalfOfError = user.is_dm_admin ? validateOnBehalfOf(onBehalfOf) : undefined;
  const isValid =
    Object.keys(merchantErrors).length === 0 && Object.keys(noteErrors).length === 0 && !onBehalfOfError;
  const saving = add.isPending;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    merchant.touchAll();
    note.touchAll();
    setOnBehalfOfTouched(true);
    // The browser's own form validity check runs first (core spec §5).
    if (!event.currentTarget.reportValidity() || !isValid || blocked || saving) return;
    const body = {
      merchant: merchantBody(merchant.values),
      note: noteBody(note.values),
      proxied_creator: user.is_dm_admin && onBehalfOf.trim() ? onBehalfOf.trim() : null,
    };
    add.mutate({ body, headers: { 'Idempotency-Key': keyFor(body) } });
  };

  const einChecking = checkingFein !== null && checkingFein === merchant.values.fein;

  return (
    <div className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>Add Merchant</H2>
        <p className="bp6-text-muted">Add a merchant by its EIN/BN with your first note about it.</p>
      </header>
      <form onSubmit={submit} noValidate={false} aria-label="Add merchant">
        <div className="mrn-page">
          <Card elevation={1}>
            <H4>Merchant</H4>
            {blocked && existing && (
              <Callout intent={Intent.WARNING} icon="warning-sign" className="mrn-callout-gap" role="status">
                A merchant with EIN/BN {existing.fein}
                {existing.legalName ? ` (${existing.legalName})` : ''} already exists, so it can't be added
                again.{' '}
                <Button
                  variant="minimal"
                  intent={Intent.PRIMARY}
                  size="small"
                  text="Add notes to it"
                  onClick={() => navigate(merchantPath(existing.resourceId), { state: carryNote() })}
                />
              </Callout>
            )}
            <MerchantFieldsForm
              idPrefix="add-merchant"
              form={merchant}
              disabled={saving}
              onEinBlur={() => void checkExists()}
              einRightElement={
                einChecking ? <Spinner size={SpinnerSize.SMALL} aria-label="Checking EIN" /> : undefined
              }
              autoFocus
            />
          </Card>
          <Card elevation={1}>
            <H4>Note</H4>
            <NoteFieldsForm
              idPrefix="add-merchant-note"
              form={note}
              categories={categories}
              disabled={saving}
            />
          </Card>
          {user.is_dm_admin && (
            <Card elevation={1}>
              <H4>Platform administrator</H4>
              <OnBehalfOfField
                id="add-merchant-on-behalf-of"
                value={onBehalfOf}
                onValueChange={(value) => {
                  setOnBehalfOf(value);
                  setOnBehalfOfServerError(undefined);
                }}
                onBlur={() => setOnBehalfOfTouched(true)}
                error={onBehalfOfServerError ?? (onBehalfOfTouched ? onBehalfOfError : undefined)}
                disabled={saving}
              />
            </Card>
          )}
          <div className="mrn-form-actions">
            <Button text="Cancel" onClick={() => goBack(navigate)} disabled={saving} />
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              icon="floppy-disk"
              text="Save"
              disabled={!isValid || blocked}
              loading={saving}
            />
          </div>
        </div>
      </form>
      <MerchantExistsDialog
        existing={existing}
        isOpen={existsDialogOpen}
        onClose={() => setExistsDialogOpen(false)}
        carry={carryNote}
      />
      {leave.alert}
    </div>
  );
}
