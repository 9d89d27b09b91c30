import { Button, Dialog, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { formatEinInput, isEinDigits, normaliseEin, routes, SUBSCRIPTION_TEXTS } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useApiMutation } from '../api/hooks.ts';
import { invalidateApiPaths } from '../api/invalidate.ts';
import { PRODUCT_NAME } from '../product.ts';
import { TextField } from '../ui/fields.tsx';
import { showError, showSuccess } from '../ui/toaster.ts';
import { useReturnFocus } from '../ui/use-return-focus.ts';

const EIN_ERROR = 'Enter the 9 digits of the EIN, as 12-3456789.';

/** Add Subscription: one EIN, typed or pasted in any spacing, kept as 12-3456789 (accounts §5). */
export function AddSubscriptionDialog({
  accountId,
  isOpen,
  onClose,
}: {
  accountId: string;
  isOpen: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [fein, setFein] = useState('');
  const [touched, setTouched] = useState(false);
  const valid = isEinDigits(normaliseEin(fein));
  const add = useApiMutation(routes.addMerchantSubscription, {
    onSuccess: (answer) => {
      // A repeat writes nothing (200): say the EIN is already watched, not that it was added.
      showSuccess(
        answer.data.already_watched
          ? SUBSCRIPTION_TEXTS.alreadyWatched(answer.data.fein)
          : answer.message || SUBSCRIPTION_TEXTS.added(PRODUCT_NAME),
      );
      void invalidateApiPaths(queryClient, [routes.listMerchantSubscriptions.path, '/api/merchants']);
      close();
    },
    onError: (error) => showError(error.message),
  });
  const close = () => {
    setFein('');
    setTouched(false);
    add.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!valid) return;
    add.mutate({ params: { id: accountId }, body: { merchant_subscription: { fein } } });
  };

  const returnFocus = useReturnFocus(isOpen);
  return (
    <Dialog
      {...returnFocus}
      title="Add Subscription"
      icon="plus"
      isOpen={isOpen}
      onClose={close}
      className="mrn-dialog"
    >
      <form onSubmit={submit} noValidate>
        <DialogBody>
          <TextField
            id="subscription-fein"
            label="EIN/BN"
            value={fein}
            // No maxLength: a pasted "12 345 6789" is longer than the formatted value and would lose its
            // last digit; the formatter keeps 9 digits and the hyphen (10 characters).
            onValueChange={(value) => setFein(formatEinInput(value))}
            onBlur={() => setTouched(true)}
            error={touched && !valid ? EIN_ERROR : undefined}
            helperText="The merchant's 9-digit EIN, as 12-3456789."
            required
            inputMode="numeric"
            placeholder="12-3456789"
            autoComplete="off"
            autoFocus
          />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={close} />
              <Button type="submit" intent={Intent.PRIMARY} text="Add Subscription" loading={add.isPending} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
