import { Callout, Intent } from '@blueprintjs/core';
import { billingStateOf, routes, type SessionUser } from '@mrn/contracts';
import { useApiQuery } from '../api/hooks.ts';
import { formatDate } from '../merchants/format.ts';
import { OpenInvoices } from './BillingState.tsx';
import { UpdatePaymentMethodButton } from './UpdatePaymentMethodButton.tsx';
import './billing.css';

/**
 * On every page, for the admins of an account whose renewal payment failed (DESIGN §4 "Billing"): what
 * happened, when the card payment provider tries again, and the ways out (change the card, pay the open
 * invoice). It reads the account the Account page reads (one cached answer) and shows while the billing
 * state is past due; other members see nothing.
 */
export function PaymentFailedBar({ user }: { user: SessionUser }) {
  const account = useApiQuery(
    routes.getAccount,
    { params: { id: user.account_resource_id } },
    { select: (answer) => answer.data, enabled: user.is_admin },
  );
  const state = account.data ? billingStateOf(account.data) : null;
  if (state?.kind !== 'past_due') return null;
  const retry = state.nextAttempt;
  return (
    <div className="mrn-payment-failed-bar">
      <Callout
        intent={Intent.DANGER}
        icon="credit-card"
        title="Your membership renewal payment failed"
        role="alert"
      >
        <p>
          The card on file for {user.account_name} could not be charged for the renewal.{' '}
          {retry
            ? `The card payment provider will try again on ${formatDate(retry)}; update the card before then to keep searching without interruption.`
            : 'Update the card to keep the membership.'}
        </p>
        <UpdatePaymentMethodButton
          accountId={user.account_resource_id}
          updateType="account"
          intent={Intent.DANGER}
        />
        <OpenInvoices accountId={user.account_resource_id} />
      </Callout>
    </div>
  );
}
