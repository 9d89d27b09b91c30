import { Button, Callout, Classes, Icon, Intent, Spinner, Tag, type TagProps } from '@blueprintjs/core';
import {
  type BillingFields,
  type BillingState,
  billingStateOf,
  billingSummary,
  routes,
} from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApiQuery } from '../api/hooks.ts';
import { formatDate } from '../merchants/format.ts';
import { formatCents } from './money.ts';
import { invalidateBillingData } from './queries.ts';
import { UpdatePaymentMethodButton } from './UpdatePaymentMethodButton.tsx';
import './billing.css';

// The one billing state (contracts/src/domain/billing-state.ts) as every screen shows it: the same tag,
// the same sentence, the same ways out (Update Payment Method, pay the open invoice).

const INTENTS: Record<BillingState['tone'], Intent> = {
  success: Intent.SUCCESS,
  primary: Intent.PRIMARY,
  warning: Intent.WARNING,
  danger: Intent.DANGER,
  none: Intent.NONE,
};
export const billingIntent = (state: BillingState): Intent => INTENTS[state.tone];

/** The account's billing state; null until the account is loaded. */
export function useBillingState(account: BillingFields | undefined): BillingState | null {
  return useMemo(() => (account ? billingStateOf(account) : null), [account]);
}

/** What the state means, dates as MM/DD/YYYY in the viewer's zone. */
export const describeBilling = (state: BillingState): string => billingSummary(state, formatDate);

export function BillingStateTag({ state, ...props }: { state: BillingState } & Omit<TagProps, 'intent'>) {
  return (
    <Tag intent={billingIntent(state)} data-testid="billing-state" {...props}>
      {state.label}
    </Tag>
  );
}

const TITLES: Partial<Record<BillingState['kind'], string>> = {
  past_due: 'The last renewal payment failed',
};
const LAPSE_TITLES: Record<NonNullable<BillingState['lapse']>, string> = {
  unpaid: 'The membership lapsed: the renewal payment failed',
  payment_failed: 'The card payment provider ended the membership',
  provider: 'The card payment provider ended the membership',
};

/** Past due or lapsed (nothing otherwise): what happened and what to do, with the ways to do it. */
export function BillingStateCallout({
  state,
  accountId,
  view,
  children,
}: {
  state: BillingState;
  accountId: string;
  /** funder: a platform admin on /funders/{id}; account: the account's own admin. */
  view: 'funder' | 'account';
  children?: React.ReactNode;
}) {
  if (state.kind !== 'past_due' && state.kind !== 'lapsed') return null;
  const title = state.lapse ? LAPSE_TITLES[state.lapse] : TITLES[state.kind];
  return (
    <Callout
      intent={state.kind === 'past_due' ? Intent.WARNING : Intent.DANGER}
      icon="credit-card"
      title={title}
      className="mrn-callout-gap mrn-billing-state-callout"
      role="status"
      aria-label="Billing state"
    >
      <p>{describeBilling(state)}</p>
      {state.updateCard && (
        <UpdatePaymentMethodButton accountId={accountId} updateType={view} intent={Intent.WARNING} />
      )}
      {state.payOpenInvoice && <OpenInvoices accountId={accountId} />}
      {children}
    </Callout>
  );
}

/**
 * The account's open invoices, each with its amount and a Pay link to the card payment provider's
 * hosted invoice page (a new tab). Paying one there brings a past-due or unpaid membership back once the
 * provider's webhook arrives; "Check again" reloads the account and its invoices.
 */
export function OpenInvoices({ accountId }: { accountId: string }) {
  const queryClient = useQueryClient();
  const open = useApiQuery(
    routes.listInvoices,
    { params: { id: accountId }, query: { page: 1, per_page: 10, status: 'open' } },
    { select: (answer) => answer.data, refetchOnWindowFocus: true, staleTime: 0 },
  );
  if (open.isPending) return <Spinner size={20} aria-label="Loading the open invoices" />;
  if (open.isError)
    return (
      <p className="mrn-error-text" role="alert">
        {open.error.message}
      </p>
    );
  if (open.data.length === 0) return <p className={Classes.TEXT_MUTED}>No invoice is waiting to be paid.</p>;
  return (
    <section className="mrn-open-invoices" aria-label="Open invoices">
      <ul>
        {open.data.map((invoice) => (
          <li key={invoice.id}>
            <span>
              Invoice of {formatDate(invoice.created_at)}:{' '}
              <strong>{formatCents(invoice.amount_due - invoice.amount_paid)}</strong> to pay
            </span>
            {invoice.hosted_invoice_url && (
              // A link (it leaves for the provider's page), drawn as a button.
              <a
                href={invoice.hosted_invoice_url}
                target="_blank"
                rel="noopener noreferrer"
                className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`}
                aria-label={`Pay the invoice of ${formatDate(invoice.created_at)}`}
              >
                <Icon icon="credit-card" />
                <span className={Classes.BUTTON_TEXT}>Pay invoice</span>
              </a>
            )}
          </li>
        ))}
      </ul>
      <Button
        variant="minimal"
        size="small"
        icon="refresh"
        text="Paid it? Check again"
        onClick={() => void invalidateBillingData(queryClient)}
      />
    </section>
  );
}
