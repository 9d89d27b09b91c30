import { Button, Dialog, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { type MerchantView, routes } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useApiMutation } from '../api/hooks.ts';
import { showError, showSuccess } from '../ui/toaster.ts';
import { useForm } from '../ui/use-form.ts';
import { useReturnFocus } from '../ui/use-return-focus.ts';
import { MerchantFieldsForm } from './MerchantFieldsForm.tsx';
import { MERCHANT_LABELS, merchantBody, merchantValuesOf, validateMerchant } from './merchant-form.ts';
import { invalidateMerchantData } from './queries.ts';
import { serverFieldErrors } from './server-fields.ts';

/** Edit merchant (the adding funder and platform administrators): the same fields as add merchant. */
export function EditMerchantDialog({
  merchant,
  isOpen,
  onClose,
}: {
  merchant: MerchantView;
  isOpen: boolean;
  onClose: () => void;
}) {
  const returnFocus = useReturnFocus(isOpen);
  return (
    <Dialog
      {...returnFocus}
      isOpen={isOpen}
      onClose={onClose}
      title="Edit Merchant"
      icon="edit"
      className="mrn-dialog-wide"
      canOutsideClickClose={false}
    >
      {isOpen && <EditMerchantForm merchant={merchant} onClose={onClose} />}
    </Dialog>
  );
}

function EditMerchantForm({ merchant, onClose }: { merchant: MerchantView; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm(() => merchantValuesOf(merchant));
  const update = useApiMutation(routes.updateMerchant, {
    onSuccess: () => {
      showSuccess('Merchant updated.');
      void invalidateMerchantData(queryClient);
      onClose();
    },
    onError: (error) => {
      if (error.status === 400)
        form.setServerErrors(serverFieldErrors(error.body, 'merchant', MERCHANT_LABELS));
      if (error.status === 409)
        form.setServerErrors({ fein: `${MERCHANT_LABELS.fein} belongs to another merchant` });
      if (error.status !== 401) showError(error.message);
    },
  });
  const isValid = Object.keys(validateMerchant(form.values)).length === 0;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.touchAll();
    if (!event.currentTarget.reportValidity() || !isValid || update.isPending) return;
    update.mutate({ params: { id: merchant.resource_id }, body: { merchant: merchantBody(form.values) } });
  };

  return (
    <form onSubmit={submit} aria-label="Edit merchant">
      <DialogBody>
        <MerchantFieldsForm idPrefix="edit-merchant" form={form} disabled={update.isPending} autoFocus />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} disabled={update.isPending} />
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              text="Save"
              disabled={!isValid}
              loading={update.isPending}
            />
          </>
        }
      />
    </form>
  );
}
