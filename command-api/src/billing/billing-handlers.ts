import {
  type cancelSubscription,
  type createSubscription,
  type downgradeSubscription,
  type getBillingConfig,
  type getBillingUpdateUrl,
  type getPaymentMethod,
  type listInvoices,
  PLANS,
  type PlanLevel,
  type previewPlanChange,
  type upgradeSubscription,
} from '@mrn/contracts';
import {
  type Actor,
  conflict,
  type EventMetadata,
  type Handler,
  paymentRequired,
  requestOrigin,
  unavailable,
} from '@mrn/platform';
import Stripe from 'stripe';
import type { OpenAccountState } from '../accounts/account.ts';
import {
  assertMayChangePlan,
  assertMayManageBilling,
  assertMayStartMembership,
  BILLING_TEXTS,
} from '../accounts/account-billing.ts';
import { loadAccount } from '../accounts/account-service.ts';
import { accounts } from '../accounts/aggregate.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { closeSession } from '../credentials/sessions.ts';
import { withBillingLock } from './billing-lock.ts';

/** Stripe's refusals in the product's terms: a declined card is the card's message (402), nothing written. */
async function viaStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof Stripe.errors.StripeCardError) throw paymentRequired(err.message, { code: err.code });
    if (err instanceof Stripe.errors.StripeError)
      throw unavailable('The card payment provider could not complete the request. Please try again.');
    throw err;
  }
}

/** The open account the caller may manage billing for (another funder's answers as missing). */
async function manageable(deps: CommandDeps, accountId: string, actor: Actor): Promise<OpenAccountState> {
  const { state } = await loadAccount(deps, accountId);
  if (state.status !== 'open') {
    assertMayManageBilling({ accountId }, actor);
    throw conflict('This funder has been archived.');
  }
  assertMayManageBilling(state, actor);
  return state;
}

const answer = (state: OpenAccountState) => ({
  resource_id: state.accountId,
  plan_level: state.planLevel,
  membership_status: state.membershipStatus,
});

/**
 * Start Membership (accounts spec §7 POST /accounts/{id}/subscription): the card token is charged for
 * the first month through the provider and the membership recorded, one billing command per funder at a
 * time. What the route runs, and what the demo network's paying funders are made with (server/demo.ts).
 */
export function startMembership(
  deps: CommandDeps,
  accountId: string,
  card: { token: string; email: string; planLevel: PlanLevel },
  ctx: { now: Date; actor: Actor },
  metadata: EventMetadata,
) {
  return withBillingLock(deps.pool, accountId, async () => {
    const account = await manageable(deps, accountId, ctx.actor);
    // Refused before the card is charged; decided again when the outcome is recorded.
    assertMayStartMembership(account, ctx.actor);
    // A membership that lapsed unpaid keeps its subscription at the provider (its open invoice would
    // revive it): a new membership ends it first, so the funder is never billed twice.
    const lapsed = account.billing.stripeSubscriptionId;
    if (lapsed && account.billing.endedReason === 'unpaid')
      await viaStripe(() => deps.billing.cancelIfLive(lapsed));
    const subscription = await viaStripe(() =>
      deps.billing.subscribe({
        accountId: account.accountId,
        email: card.email,
        token: card.token,
        planLevel: card.planLevel,
        customerId: account.billing.stripeCustomerId,
      }),
    );
    const start = {
      type: 'StartMembership' as const,
      planLevel: card.planLevel,
      stripeCustomerId: subscription.customerId,
      stripeSubscriptionId: subscription.subscriptionId,
      currentPeriodEnd: subscription.currentPeriodEnd,
    };
    try {
      return await accounts.handle(deps, account.accountId, start, ctx, metadata);
    } catch (err) {
      // Charged but not recorded (the store failed, or the account changed meanwhile): the
      // subscription is cancelled, so nobody pays for a membership the product does not know.
      await deps.billing
        .cancel(subscription.subscriptionId)
        .catch((cancelErr: unknown) =>
          deps.logger.error(
            { err: cancelErr, subscription: subscription.subscriptionId },
            'could not cancel an unrecorded subscription',
          ),
        );
      throw err;
    }
  });
}

export function billingHandlers(deps: CommandDeps) {
  const ctxOf = (req: { actor: Actor }) => ({ now: deps.clock.now(), actor: req.actor });

  const createSubscriptionHandler: Handler<typeof createSubscription> = async (req) => {
    const result = await startMembership(
      deps,
      req.params.id,
      {
        token: req.body.stripeToken,
        email: req.body.stripeEmail,
        planLevel: req.body.stripePlanName,
      },
      ctxOf(req),
      metadataFor(req),
    );
    req.reply.code(201);
    return { data: answer(result.state as OpenAccountState), position: result.position };
  };

  const changePlan =
    (planLevel: PlanLevel): Handler<typeof upgradeSubscription | typeof downgradeSubscription> =>
    (req) =>
      withBillingLock(deps.pool, req.params.id, async () => {
        const account = await manageable(deps, req.params.id, req.actor);
        assertMayChangePlan(account, req.actor, planLevel);
        const { planVersion } = await viaStripe(() =>
          deps.billing.changePlan(account.billing.stripeSubscriptionId!, planLevel),
        );
        const result = await accounts.handle(
          deps,
          account.accountId,
          { type: 'RecordPlanChange', planLevel, planVersion },
          ctxOf(req),
          metadataFor(req),
        );
        return { data: answer(result.state as OpenAccountState), position: result.position };
      });

  const cancelSubscriptionHandler: Handler<typeof cancelSubscription> = (req) =>
    withBillingLock(deps.pool, req.params.id, async () => {
      const account = await manageable(deps, req.params.id, req.actor);
      assertMayChangePlan(account, req.actor);
      await viaStripe(() => deps.billing.cancel(account.billing.stripeSubscriptionId!));
      const result = await accounts.handle(
        deps,
        account.accountId,
        { type: 'CancelMembership' },
        ctxOf(req),
        metadataFor(req),
      );
      // Cancelling ends the caller's session (accounts spec §4): the web goes to /login. That is the
      // funder's own users only: a platform admin who cancels another funder's membership stays in.
      if (req.actor.accountId === account.accountId) await closeSession(deps.pool, req.actor.sessionId);
      return { data: answer(result.state as OpenAccountState), position: result.position };
    });

  const previewHandler: Handler<typeof previewPlanChange> = async (req) => {
    const account = await manageable(deps, req.params.id, req.actor);
    assertMayChangePlan(account, req.actor, req.query.plan);
    const preview = await viaStripe(() =>
      deps.billing.previewPlanChange(
        account.billing.stripeCustomerId!,
        account.billing.stripeSubscriptionId!,
        req.query.plan,
      ),
    );
    return {
      data: {
        plan_level: req.query.plan,
        proration_amount: preview.prorationAmount,
        next_invoice_amount: preview.nextInvoiceAmount,
        next_payment_date: preview.nextPaymentDate,
      },
    };
  };

  const listInvoicesHandler: Handler<typeof listInvoices> = async (req) => {
    const account = await manageable(deps, req.params.id, req.actor);
    const { page, per_page, status } = req.query;
    const customer = account.billing.stripeCustomerId;
    const { invoices, total } = customer
      ? await viaStripe(() => deps.billing.invoices(customer, page, per_page, status))
      : { invoices: [], total: 0 };
    return {
      data: invoices.map((i) => ({
        id: i.id ?? '',
        created_at: new Date(i.created * 1000).toISOString(),
        amount_due: i.amount_due,
        amount_paid: i.amount_paid,
        paid: i.status === 'paid',
        status: i.status ?? 'draft',
        invoice_pdf: i.invoice_pdf ?? null,
        hosted_invoice_url: i.hosted_invoice_url ?? null,
      })),
      pagination: {
        current_page: page,
        per_page,
        total_count: total,
        total_pages: Math.max(1, Math.ceil(total / per_page)),
      },
    };
  };

  const paymentMethodHandler: Handler<typeof getPaymentMethod> = async (req) => {
    const account = await manageable(deps, req.body.account_id, req.actor);
    const customer = account.billing.stripeCustomerId;
    const card = customer ? await viaStripe(() => deps.billing.paymentMethod(customer)) : null;
    return {
      data: {
        card: card
          ? { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year }
          : null,
      },
    };
  };

  const billingUpdateUrlHandler: Handler<typeof getBillingUpdateUrl> = async (req) => {
    const account = await manageable(deps, req.body.account_id, req.actor);
    const customer = account.billing.stripeCustomerId;
    if (!customer) throw conflict(BILLING_TEXTS.notMember);
    // Back on the funder's own page, whose #billing_updated opens the Billing tab with its toast, at
    // the address the user asked from (PUBLIC_URL when set): their session lives at that origin, so a
    // way back to another (localhost for 127.0.0.1) would sign them out. Handed back to the signed-in
    // caller only, so the request's own Host may be used (platform/src/http/link-origin.ts).
    const origin = requestOrigin(req.request, deps.config.PUBLIC_URL) ?? deps.publicUrl;
    const back =
      req.body.update_type === 'funder' && req.actor.isDmAdmin
        ? `${origin}/funders/${account.accountId}#billing_updated`
        : `${origin}/account#billing_updated`;
    return { data: { url: await viaStripe(() => deps.billing.portalUrl(customer, back)) } };
  };

  const billingConfigHandler: Handler<typeof getBillingConfig> = async () => ({
    data: {
      mode: deps.billing.mode,
      publishable_key: deps.billing.publishableKey,
      token_url: deps.billing.tokenUrl,
      prices: { BASIC: PLANS.BASIC.priceCents, PRO: PLANS.PRO.priceCents },
    },
  });

  return {
    createSubscription: createSubscriptionHandler,
    cancelSubscription: cancelSubscriptionHandler,
    upgradeSubscription: changePlan('PRO'),
    downgradeSubscription: changePlan('BASIC'),
    previewPlanChange: previewHandler,
    listInvoices: listInvoicesHandler,
    getPaymentMethod: paymentMethodHandler,
    getBillingUpdateUrl: billingUpdateUrlHandler,
    getBillingConfig: billingConfigHandler,
  };
}
