import {
  Button,
  Callout,
  Checkbox,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  Intent,
  Spinner,
} from '@blueprintjs/core';
import { type MembershipStatus, type PlanLevel, routes } from '@mrn/contracts';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef } from 'react';
import { ApiError } from '../api/api-error.ts';
import { call } from '../api/client.ts';
import { TextField } from '../ui/fields.tsx';
import { useForm } from '../ui/use-form.ts';
import {
  type CardValues,
  formatCardNumberInput,
  formatExpiryInput,
  parseExpiry,
  validateCard,
} from './card.ts';
import { CardTokenError, requestTestCardToken } from './card-token.ts';
import { formatCents } from './money.ts';
import { useBillingConfig } from './queries.ts';
import './billing.css';

export interface PaidMembership {
  plan_level: PlanLevel;
  membership_status: MembershipStatus;
}

interface PayDialogProps {
  /** The plan being bought; the panel is open while it is set. */
  plan: PlanLevel | null;
  accountId: string;
  /** The e-mail address receipts go to, filled in and editable. */
  defaultEmail: string;
  onClose: () => void;
  /** After the payment: the panel keeps its busy Pay button until this is done (session refresh, route). */
  onPaid: (answer: PaidMembership) => Promise<void>;
}

export const PLAN_NAMES: Record<PlanLevel, string> = { BASIC: 'Basic', PRO: 'Pro' };

/**
 * The card payment panel of /membership (accounts spec §2): titled Pay, the amount, card number,
 * expiry, CVC and e-mail, remember-me shown but disabled. The card goes to the card payment provider
 * for a token and only the token to our server; a refused card or payment shows the provider's own
 * message here and changes nothing.
 */
export function PayDialog({ plan, onClose, ...rest }: PayDialogProps) {
  const busy = useRef(false);
  return (
    <Dialog
      isOpen={plan !== null}
      onClose={() => {
        if (!busy.current) onClose();
      }}
      title="Pay"
      icon="credit-card"
      className="mrn-pay-dialog"
    >
      {plan && <PayForm plan={plan} onClose={onClose} busy={busy} {...rest} />}
    </Dialog>
  );
}

function PayForm({
  plan,
  accountId,
  defaultEmail,
  onClose,
  onPaid,
  busy,
}: Omit<PayDialogProps, 'plan'> & { plan: PlanLevel; busy: { current: boolean } }) {
  const config = useBillingConfig();
  const form = useForm<CardValues>({ number: '', expiry: '', cvc: '', email: defaultEmail });
  const errors = validateCard(form.values);
  const errorOf = form.errorOf(errors);
  const amount = config.prices[plan];

  const pay = useMutation({
    mutationFn: async (values: CardValues) => {
      const settings = config.data;
      if (!settings?.token_url) throw new Error('Card payments are not available right now.');
      const expiry = parseExpiry(values.expiry);
      if ('error' in expiry) throw new CardTokenError(expiry.error, 'expiry');
      const token = await requestTestCardToken(settings.token_url, settings.publishable_key, {
        number: values.number,
        expiry,
        cvc: values.cvc,
      });
      const answer = await call(routes.createSubscription, {
        params: { id: accountId },
        body: { stripeToken: token, stripeEmail: values.email.trim(), stripePlanName: plan },
      });
      await onPaid(answer.data);
    },
    onMutate: () => {
      busy.current = true;
    },
    onSettled: () => {
      busy.current = false;
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pay.isPending) return;
    // A refusal answered an earlier attempt: it goes, whether this one is sent or stopped by a field.
    pay.reset();
    form.touchAll();
    if (Object.keys(errors).length > 0) return;
    pay.mutate(form.values);
  };
  /** A field typed into: the card payment provider's refusal of the card before no longer applies. */
  const edit = (name: keyof CardValues, value: string) => {
    if (pay.isError) pay.reset();
    form.setField(name, value);
  };

  const failure = paymentFailure(pay.error);
  const live = config.data?.mode === 'live';
  const fieldProps = (name: keyof CardValues, label: string) => ({
    id: `pay-${name}`,
    label,
    ...form.bindText(name, errorOf(name)),
    onValueChange: (value: string) => edit(name, value),
    required: true,
    disabled: pay.isPending,
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Card payment">
      <DialogBody>
        <div className="mrn-pay-amount">
          <span className={Classes.TEXT_MUTED}>{PLAN_NAMES[plan]} membership</span>
          <strong>{formatCents(amount)}</strong>
          <span className={Classes.TEXT_MUTED}>per month, the first month charged today</span>
        </div>
        {config.isPending && <Spinner aria-label="Loading the card form" />}
        {config.isError && (
          <Callout intent={Intent.DANGER} icon="error" role="alert">
            {config.error.message} Please try again.
          </Callout>
        )}
        {live && (
          // Live mode takes the card in Stripe Elements (Stripe.js from js.stripe.com), which this
          // build does not load: see card-token.ts.
          <Callout intent={Intent.WARNING} icon="credit-card" title="Card payment is not available here">
            Live payments use Stripe's own card form (Stripe Elements), which this installation does not load.
            Please contact us to start the membership.
          </Callout>
        )}
        {config.data && !live && (
          <>
            {failure && (
              <Callout intent={Intent.DANGER} icon="error" role="alert" className="mrn-callout-gap">
                {failure}
              </Callout>
            )}
            <TextField
              {...fieldProps('number', 'Card number')}
              onValueChange={(value) => edit('number', formatCardNumberInput(value))}
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="1234 1234 1234 1234"
              maxLength={23}
              autoFocus
            />
            <div className="mrn-pay-row">
              <TextField
                {...fieldProps('expiry', 'Expiry (MM/YY)')}
                onValueChange={(value) => edit('expiry', formatExpiryInput(value))}
                inputMode="numeric"
                autoComplete="cc-exp"
                placeholder="MM/YY"
                maxLength={7}
              />
              <TextField
                {...fieldProps('cvc', 'CVC')}
                onValueChange={(value) => edit('cvc', value.replace(/\D/g, '').slice(0, 4))}
                inputMode="numeric"
                autoComplete="cc-csc"
                placeholder="123"
                maxLength={4}
              />
            </div>
            <TextField
              {...fieldProps('email', 'Email')}
              type="email"
              autoComplete="email"
              maxLength={64}
              helperText="Receipts and invoices go to this address."
            />
            <Checkbox
              label="Remember me"
              disabled
              checked={false}
              className="mrn-pay-remember"
              aria-describedby="pay-remember-help"
            />
            <p id="pay-remember-help" className={`${Classes.TEXT_MUTED} mrn-small`}>
              Remembering the card for other sites is turned off: it is kept only by the card payment
              provider, for this membership.
            </p>
            {config.data.mode === 'test' && (
              <p className={`${Classes.TEXT_MUTED} mrn-small`}>
                Test mode: no real card is charged. 4242 4242 4242 4242 with any future expiry and CVC
                succeeds; 4000 0000 0000 0002 is declined.
              </p>
            )}
          </>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} disabled={pay.isPending} />
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              icon="lock"
              text={`Pay ${formatCents(amount)}`}
              loading={pay.isPending}
              disabled={!config.data || live}
            />
          </>
        }
      />
    </form>
  );
}

/**
 * What the panel says when paying failed: the card payment provider's message (a refused card, an
 * invalid number), the server's (a declined payment answers 402 with Stripe's message), else the
 * catalogue's "An error occurred while attempting to create subscription. Please try again."
 */
function paymentFailure(error: Error | null): string | null {
  if (!error) return null;
  if (error instanceof ApiError) {
    // A lost session ends it and goes to the login page; nothing to show here.
    if (error.status === 401) return null;
    return error.body?.errors ? error.message : `${error.message} Please try again.`;
  }
  return error.message;
}
