import type Stripe from 'stripe';
import type { ValidCard } from './cards.ts';

/**
 * Everything one server instance knows, in memory. Objects are kept in Stripe's own shapes (the
 * pinned SDK's types), so a response is the stored object as it is; what Stripe would not show
 * (card numbers, link tokens) lives in side tables.
 */

/** A proration or other charge waiting for the customer's next invoice (Stripe's pending invoice item). */
export interface PendingItem {
  id: string;
  customer: string;
  subscription: string | null;
  subscriptionItem: string | null;
  price: string | null;
  quantity: number;
  amount: number;
  description: string;
  period: { start: number; end: number };
  proration: boolean;
  created: number;
}

export interface PortalSessionRecord {
  session: Stripe.BillingPortal.Session;
  token: string;
  expiresAt: number;
}

export interface RequestInfo {
  id: string;
  idempotencyKey: string | null;
}

/** What becomes of a subscription when the last retry of its renewal fails (see State). */
export type AfterFinalRetry = 'cancel' | 'unpaid';

export class State {
  readonly customers = new Map<string, Stripe.Customer>();
  /** Cards saved as customer sources (`source=tok_…`), `card_…`. */
  readonly sources = new Map<string, Stripe.Card>();
  readonly sourceCreated = new Map<string, number>();
  readonly tokens = new Map<string, Stripe.Token>();
  readonly paymentMethods = new Map<string, Stripe.PaymentMethod>();
  /** The test card behind a token, source or payment method id. */
  readonly cards = new Map<string, ValidCard>();
  readonly products = new Map<string, Stripe.Product>();
  readonly prices = new Map<string, Stripe.Price>();
  readonly subscriptions = new Map<string, Stripe.Subscription>();
  readonly invoices = new Map<string, Stripe.Invoice>();
  readonly pendingItems = new Map<string, PendingItem>();
  readonly clocks = new Map<string, Stripe.TestHelpers.TestClock>();
  /** Portal links by their secret token. */
  readonly portalSessions = new Map<string, PortalSessionRecord>();
  /** Hosted invoice page / PDF links: secret token → invoice id. */
  readonly invoiceLinks = new Map<string, string>();
  readonly events = new Map<string, Stripe.EventBase>();
  /** Responses of POSTs by Idempotency-Key. */
  readonly idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  /** The API request being handled, for `event.request`; null while a test clock advances. */
  request: RequestInfo | null = null;
  /**
   * Stripe's "subscription status if all retries for a payment fail" setting: `cancel` (Stripe's
   * default) ends the subscription; `unpaid` keeps it, charges nothing more, and makes it active again
   * when its open invoice is paid.
   */
  afterFinalRetry: AfterFinalRetry = 'cancel';

  /** Any stored object by id, for `expand[]`. */
  find(id: string): object | undefined {
    const prefix = id.slice(0, id.indexOf('_') + 1);
    switch (prefix) {
      case 'cus_':
        return this.customers.get(id);
      case 'card_':
        return this.sources.get(id);
      case 'pm_':
        return this.paymentMethods.get(id);
      case 'tok_':
        return this.tokens.get(id);
      case 'prod_':
        return this.products.get(id);
      case 'price_':
        return this.prices.get(id);
      case 'sub_':
        return this.subscriptions.get(id);
      case 'in_':
        return this.invoices.get(id);
      case 'clock_':
        return this.clocks.get(id);
      default:
        return undefined;
    }
  }
}
