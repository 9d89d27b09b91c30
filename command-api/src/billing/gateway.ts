import type { PlanLevel } from '@mrn/contracts';
import Stripe from 'stripe';

/**
 * The calls billing makes, over the official `stripe` SDK: against Stripe itself with a real secret
 * key, or, in billing test mode, against the Stripe-compatible server in `billing-test-server/`
 * (the same SDK with `host`, `port`, `protocol: 'http'`). Prices are found by lookup key
 * (`basic_monthly`, `pro_monthly`), so a Stripe account needs those two monthly prices.
 */
export interface BillingGateway {
  mode: 'test' | 'live';
  publishableKey: string;
  /** Test mode: where the web's card form posts, as Stripe.js would. */
  tokenUrl: string | null;
  subscribe(input: {
    accountId: string;
    email: string;
    token: string;
    planLevel: PlanLevel;
    customerId: string | null;
  }): Promise<{ customerId: string; subscriptionId: string; currentPeriodEnd: string | null }>;
  /**
   * Moves the subscription to the plan, prorated, and stamps it with the next plan version (see
   * {@link PLAN_VERSION_KEY}); answers the version the provider now holds.
   */
  changePlan(subscriptionId: string, planLevel: PlanLevel): Promise<{ planVersion: number }>;
  previewPlanChange(
    customerId: string,
    subscriptionId: string,
    planLevel: PlanLevel,
  ): Promise<{ prorationAmount: number; nextInvoiceAmount: number; nextPaymentDate: string | null }>;
  cancel(subscriptionId: string): Promise<void>;
  /** Cancels the subscription unless it has ended already (canceled, or incomplete and expired). */
  cancelIfLive(subscriptionId: string): Promise<void>;
  /** The customer's invoices, newest first; only those in `status` when given. */
  invoices(
    customerId: string,
    page: number,
    perPage: number,
    status?: Stripe.InvoiceListParams.Status,
  ): Promise<{ invoices: Stripe.Invoice[]; total: number }>;
  paymentMethod(customerId: string): Promise<Stripe.PaymentMethod.Card | null>;
  portalUrl(customerId: string, returnUrl: string): Promise<string>;
  /**
   * Verifies `Stripe-Signature` (and that it was made within five minutes of now, either way) and
   * parses the event; throws {@link WebhookRefused} when either fails. The event's shape is not checked.
   */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): Stripe.Event;
  /** Which plan a price is, from its lookup key. */
  planOfPrice(priceId: string): Promise<PlanLevel | null>;
  /**
   * The funder a Stripe customer belongs to (its `account_id` metadata, set when it was created); null
   * for a customer the provider does not know, or one that is deleted or not ours.
   */
  accountOfCustomer(customerId: string): Promise<string | null>;
}

export interface GatewayOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /**
   * Billing test mode: the local Stripe-compatible server. Each new customer gets a test clock of its
   * own (frozen at its creation), so renewals and failed renewals can be played by advancing it.
   */
  testServer?: { host: string; port: number; tokenUrl: string };
}

/**
 * The subscription's plan version, kept in its own metadata: 0 when it starts, and each plan change
 * the product asks for writes the next number in the same update as the new price (one billing command
 * per funder at a time, so the numbers follow the order in which the provider made the changes). The
 * update's answer and every later `customer.subscription.*` event carry it, so the request that made a
 * change and Stripe's webhook of it name the same change, and an event older than the plan recorded
 * is recognised as stale whatever order it arrives in.
 */
export const PLAN_VERSION_KEY = 'mrn_plan_version';

export function planVersionOf(subscription: { metadata?: Record<string, string> | null }): number {
  const version = Number(subscription.metadata?.[PLAN_VERSION_KEY] ?? 0);
  return Number.isSafeInteger(version) && version >= 0 ? version : 0;
}

/** Why a webhook was refused: its signature (missing, wrong or mistimed) or a body that is not JSON. */
export class WebhookRefused extends Error {
  constructor(
    readonly problem: 'signature' | 'payload',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookRefused';
  }
}

/** Stripe's default tolerance: a signature made more than five minutes from now is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
export const WEBHOOK_TEXTS = {
  signature: 'The Stripe-Signature header is missing or wrong, or was not made within five minutes of now.',
  payload: 'The signed body is not a JSON Stripe event.',
} as const;

/** The `t=` of a `Stripe-Signature` header (the last one, as Stripe's own parser takes it). */
function signedAtOf(header: string): number | null {
  let signedAt: number | null = null;
  for (const part of header.split(',')) {
    const [key, value] = part.split('=', 2);
    if (key?.trim() === 't' && value && /^\d{1,12}$/.test(value.trim())) signedAt = Number(value.trim());
  }
  return signedAt;
}

const LOOKUP_KEYS: Record<PlanLevel, string> = { BASIC: 'basic_monthly', PRO: 'pro_monthly' };
const iso = (unix: number | null | undefined) => (unix ? new Date(unix * 1000).toISOString() : null);

export function createBillingGateway(opts: GatewayOptions): BillingGateway {
  const stripe = new Stripe(opts.secretKey, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    ...(opts.testServer ? { host: opts.testServer.host, port: opts.testServer.port, protocol: 'http' } : {}),
  });

  let prices: Promise<Record<PlanLevel, string>> | undefined;
  const priceIds = () => {
    prices ??= stripe.prices
      .list({ lookup_keys: Object.values(LOOKUP_KEYS), active: true, limit: 10 })
      .then((list) => {
        const byKey = new Map(list.data.map((p) => [p.lookup_key, p.id]));
        const basic = byKey.get(LOOKUP_KEYS.BASIC);
        const pro = byKey.get(LOOKUP_KEYS.PRO);
        if (!basic || !pro)
          throw new Error('Stripe has no prices with lookup keys basic_monthly and pro_monthly');
        return { BASIC: basic, PRO: pro };
      })
      .catch((err: unknown) => {
        prices = undefined;
        throw err;
      });
    return prices;
  };

  const subscriptionItem = async (subscriptionId: string) => {
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Subscription ${subscriptionId} has no item`);
    return { subscription, item };
  };

  return {
    mode: opts.testServer ? 'test' : 'live',
    publishableKey: opts.publishableKey,
    tokenUrl: opts.testServer?.tokenUrl ?? null,

    async subscribe({ accountId, email, token, planLevel, customerId }) {
      const price = (await priceIds())[planLevel];
      const paymentMethod = await stripe.paymentMethods.create({ type: 'card', card: { token } });
      let customer = customerId;
      if (customer) {
        await stripe.paymentMethods.attach(paymentMethod.id, { customer });
        await stripe.customers.update(customer, {
          email,
          invoice_settings: { default_payment_method: paymentMethod.id },
        });
      } else {
        const testClock = opts.testServer
          ? (await stripe.testHelpers.testClocks.create({ frozen_time: Math.floor(Date.now() / 1000) })).id
          : undefined;
        customer = (
          await stripe.customers.create({
            email,
            payment_method: paymentMethod.id,
            invoice_settings: { default_payment_method: paymentMethod.id },
            metadata: { account_id: accountId },
            ...(testClock ? { test_clock: testClock } : {}),
          })
        ).id;
      }
      // A declined card fails here (StripeCardError, 402) and leaves no subscription behind.
      const subscription = await stripe.subscriptions.create({
        customer,
        items: [{ price }],
        default_payment_method: paymentMethod.id,
        payment_behavior: 'error_if_incomplete',
        metadata: { account_id: accountId },
      });
      return {
        customerId: customer,
        subscriptionId: subscription.id,
        currentPeriodEnd: iso(subscription.items.data[0]?.current_period_end),
      };
    },

    async changePlan(subscriptionId, planLevel) {
      const { subscription, item } = await subscriptionItem(subscriptionId);
      const updated = await stripe.subscriptions.update(subscriptionId, {
        items: [{ id: item.id, price: (await priceIds())[planLevel] }],
        // Upgrade charged pro rata on the next invoice, downgrade credited there (accounts spec §4).
        proration_behavior: 'create_prorations',
        metadata: { [PLAN_VERSION_KEY]: String(planVersionOf(subscription) + 1) },
      });
      return { planVersion: planVersionOf(updated) };
    },

    async previewPlanChange(customerId, subscriptionId, planLevel) {
      const { item } = await subscriptionItem(subscriptionId);
      const prorations = (invoice: Stripe.Invoice) =>
        invoice.lines.data
          .filter((line) => line.parent?.subscription_item_details?.proration)
          .reduce((sum, line) => sum + line.amount, 0);
      // The next invoice already carries the prorations of earlier changes this period (an upgrade
      // then a downgrade): this change's amount is what it adds to them.
      const [current, changed] = await Promise.all([
        stripe.invoices.createPreview({ customer: customerId, subscription: subscriptionId }),
        stripe.invoices.createPreview({
          customer: customerId,
          subscription: subscriptionId,
          subscription_details: {
            items: [{ id: item.id, price: (await priceIds())[planLevel] }],
            proration_behavior: 'create_prorations',
          },
        }),
      ]);
      return {
        prorationAmount: prorations(changed) - prorations(current),
        nextInvoiceAmount: changed.amount_due,
        nextPaymentDate: iso(changed.next_payment_attempt ?? changed.period_end),
      };
    },

    async cancel(subscriptionId) {
      await stripe.subscriptions.cancel(subscriptionId);
    },

    async cancelIfLive(subscriptionId) {
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') return;
      await stripe.subscriptions.cancel(subscriptionId);
    },

    async invoices(customerId, page, perPage, status) {
      // Stripe pages by cursor; the dashboard pages by number. A funder has one invoice a month, so
      // reading them all (100 at a time) is a few requests at most.
      const all: Stripe.Invoice[] = [];
      const query = { customer: customerId, limit: 100, ...(status ? { status } : {}) };
      for await (const invoice of stripe.invoices.list(query)) {
        all.push(invoice);
        if (all.length >= 1000) break;
      }
      return { invoices: all.slice((page - 1) * perPage, page * perPage), total: all.length };
    },

    async paymentMethod(customerId) {
      const customer = await stripe.customers.retrieve(customerId);
      if (customer.deleted) return null;
      const id = customer.invoice_settings.default_payment_method;
      if (!id) return null;
      const method = typeof id === 'string' ? await stripe.paymentMethods.retrieve(id) : id;
      return method.card ?? null;
    },

    async portalUrl(customerId, returnUrl) {
      return (await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }))
        .url;
    },

    verifyWebhook(rawBody, signature) {
      const header = signature ?? '';
      let event: Stripe.Event | null = null;
      try {
        // Five minutes of tolerance, Stripe's default: an old captured event is refused.
        event = stripe.webhooks.constructEvent(
          rawBody,
          header,
          opts.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
        );
      } catch (err) {
        if (err instanceof Stripe.errors.StripeSignatureVerificationError)
          throw new WebhookRefused('signature', WEBHOOK_TEXTS.signature);
        // Signed, but not JSON: refused below, once the signature's time is checked too.
      }
      // The SDK refuses only a signature made too long ago; one dated in the future is as suspect
      // (a captured request replayed later, or a clock that cannot be trusted).
      const signedAt = signedAtOf(header);
      if (signedAt === null || signedAt - Math.floor(Date.now() / 1000) > WEBHOOK_TOLERANCE_SECONDS)
        throw new WebhookRefused('signature', WEBHOOK_TEXTS.signature);
      if (!event) throw new WebhookRefused('payload', WEBHOOK_TEXTS.payload);
      return event;
    },

    async accountOfCustomer(customerId) {
      try {
        const customer = await stripe.customers.retrieve(customerId);
        return customer.deleted ? null : (customer.metadata.account_id ?? null);
      } catch (err) {
        // Not a customer of this Stripe account: nothing of ours. Anything else (the provider down) is
        // thrown, so the webhook answers 5xx and Stripe tries again later.
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
        throw err;
      }
    },

    async planOfPrice(priceId) {
      const ids = await priceIds();
      return priceId === ids.PRO ? 'PRO' : priceId === ids.BASIC ? 'BASIC' : null;
    },
  };
}
