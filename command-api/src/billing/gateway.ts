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
  changePlan(subscriptionId: string, planLevel: PlanLevel): Promise<void>;
  previewPlanChange(
    customerId: string,
    subscriptionId: string,
    planLevel: PlanLevel,
  ): Promise<{ prorationAmount: number; nextInvoiceAmount: number; nextPaymentDate: string | null }>;
  cancel(subscriptionId: string): Promise<void>;
  invoices(
    customerId: string,
    page: number,
    perPage: number,
  ): Promise<{ invoices: Stripe.Invoice[]; total: number }>;
  paymentMethod(customerId: string): Promise<Stripe.PaymentMethod.Card | null>;
  portalUrl(customerId: string, returnUrl: string): Promise<string>;
  /** Verifies `Stripe-Signature` (and its age) and parses the event; throws when either fails. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): Stripe.Event;
  /** Which plan a price is, from its lookup key. */
  planOfPrice(priceId: string): Promise<PlanLevel | null>;
  /** The funder a Stripe customer belongs to (its `account_id` metadata, set when it was created). */
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
      const { item } = await subscriptionItem(subscriptionId);
      await stripe.subscriptions.update(subscriptionId, {
        items: [{ id: item.id, price: (await priceIds())[planLevel] }],
        // Upgrade charged pro rata on the next invoice, downgrade credited there (accounts spec §4).
        proration_behavior: 'create_prorations',
      });
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

    async invoices(customerId, page, perPage) {
      // Stripe pages by cursor; the dashboard pages by number. A funder has one invoice a month, so
      // reading them all (100 at a time) is a few requests at most.
      const all: Stripe.Invoice[] = [];
      for await (const invoice of stripe.invoices.list({ customer: customerId, limit: 100 })) {
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
      // Five minutes of tolerance, Stripe's default: an old captured event is refused.
      return stripe.webhooks.constructEvent(rawBody, signature ?? '', opts.webhookSecret, 300);
    },

    async accountOfCustomer(customerId) {
      const customer = await stripe.customers.retrieve(customerId);
      return customer.deleted ? null : (customer.metadata.account_id ?? null);
    },

    async planOfPrice(priceId) {
      const ids = await priceIds();
      return priceId === ids.PRO ? 'PRO' : priceId === ids.BASIC ? 'BASIC' : null;
    },
  };
}
