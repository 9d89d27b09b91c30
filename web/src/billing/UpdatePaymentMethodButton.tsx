import { Alert, Button, type ButtonProps, Intent } from '@blueprintjs/core';
import { routes } from '@mrn/contracts';
import { useState } from 'react';
import { useApiMutation } from '../api/hooks.ts';
import { showError } from '../ui/toaster.ts';

/**
 * Update Payment Method (accounts spec §2): asks first, then gets the card payment provider's portal
 * address and leaves for it. The portal sends the browser back to /account#billing_updated (or the
 * funder's page), where the Billing tab opens with "Your payment method has been updated."
 */
export function UpdatePaymentMethodButton({
  accountId,
  updateType,
  ...buttonProps
}: {
  accountId: string;
  /** funder: a platform administrator on /funders/{id}; account: an account admin on /account. */
  updateType: 'funder' | 'account';
} & Pick<ButtonProps, 'intent' | 'variant' | 'size'>) {
  const [asking, setAsking] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const getUrl = useApiMutation(routes.getBillingUpdateUrl, {
    onSuccess: (answer) => {
      setLeaving(true);
      window.location.assign(answer.data.url);
    },
    onError: (error) => {
      setAsking(false);
      if (error.status !== 401) showError(error.message);
    },
  });
  const busy = getUrl.isPending || leaving;

  return (
    <>
      <Button
        icon="credit-card"
        text="Update Payment Method"
        {...buttonProps}
        onClick={() => setAsking(true)}
      />
      <Alert
        isOpen={asking}
        icon="credit-card"
        intent={Intent.PRIMARY}
        confirmButtonText="Continue to Update"
        cancelButtonText="Cancel"
        loading={busy}
        canEscapeKeyCancel={!busy}
        onCancel={() => setAsking(false)}
        onConfirm={() => getUrl.mutate({ body: { account_id: accountId, update_type: updateType } })}
      >
        <p>
          You will be taken to the card payment provider's secure page to change the card used for the
          membership. When you are done there, you come back here.
        </p>
      </Alert>
    </>
  );
}
