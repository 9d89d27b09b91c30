import { MEMBERSHIP_STATUSES, PLAN_LEVELS } from '../domain/plans.ts';
import { dataEnvelope, Pagination } from '../http/envelope.ts';
import { email, requiredText, uuid } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { z } from '../zod.ts';

// Membership and billing (accounts spec §4, §7; DESIGN §4 "Billing"). Plan and membership change only
// through these commands or the verified Stripe webhooks they cause.

const idParam = z.object({ id: uuid() });
const paging = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
});

const MembershipAnswer = dataEnvelope(
  z.object({
    resource_id: z.string(),
    plan_level: z.enum(PLAN_LEVELS),
    membership_status: z.enum(MEMBERSHIP_STATUSES),
  }),
);

/** Start a membership: the card token from the payment panel, charged for the first month at once. */
export const createSubscription = route({
  method: 'POST',
  path: '/api/accounts/:id/subscription',
  service: 'command',
  access: 'account_admin',
  params: idParam,
  body: z.object({
    stripeToken: requiredText(200).pipe(z.string().regex(/^tok_[A-Za-z0-9_]+$/, 'is not a card token')),
    stripeEmail: email(),
    stripePlanName: z.enum(PLAN_LEVELS),
  }),
  response: MembershipAnswer,
  action: 'create subscription',
});

/** Cancel Membership: ends the membership and the caller's session (the web goes to /login). */
export const cancelSubscription = route({
  method: 'POST',
  path: '/api/accounts/:id/subscription/cancel',
  service: 'command',
  access: 'account_admin',
  params: idParam,
  response: MembershipAnswer,
  action: 'cancel subscription',
});

/** BASIC → PRO, charged pro rata on the next invoice. */
export const upgradeSubscription = route({
  method: 'PUT',
  path: '/api/accounts/:id/subscription/upgrade',
  service: 'command',
  access: 'account_admin',
  params: idParam,
  response: MembershipAnswer,
  action: 'upgrade membership',
});

/** PRO → BASIC, the unused part credited on the next invoice. */
export const downgradeSubscription = route({
  method: 'PUT',
  path: '/api/accounts/:id/subscription/downgrade',
  service: 'command',
  access: 'account_admin',
  params: idParam,
  response: MembershipAnswer,
  action: 'downgrade membership',
});

/** What a plan change would cost before it is confirmed: the next invoice with its proration. */
export const previewPlanChange = route({
  method: 'GET',
  path: '/api/accounts/:id/subscription/preview',
  service: 'command',
  access: 'account_admin',
  params: idParam,
  query: z.object({ plan: z.enum(PLAN_LEVELS) }),
  response: dataEnvelope(
    z.object({
      plan_level: z.enum(PLAN_LEVELS),
      /** Cents: positive is charged on the next invoice, negative is credited. */
      proration_amount: z.number().int(),
      next_invoice_amount: z.number().int(),
      next_payment_date: z.string().nullable(),
    }),
  ),
  action: 'retrieve invoices',
});

/** The provider's invoice states (Stripe's): draft, open (to be paid), paid, uncollectible, void. */
export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'uncollectible', 'void'] as const;

export const InvoiceView = z.object({
  id: z.string(),
  created_at: z.string(),
  /** Cents. */
  amount_due: z.number().int(),
  amount_paid: z.number().int(),
  paid: z.boolean(),
  status: z.string(),
  invoice_pdf: z.string().nullable(),
  /**
   * The provider's hosted invoice page: an open invoice is paid there by card (paying the open invoice
   * of a past-due or unpaid membership brings it back). Null when the provider gives none (a draft).
   */
  hosted_invoice_url: z.string().nullable(),
});
export type InvoiceView = z.infer<typeof InvoiceView>;

export const listInvoices = route({
  method: 'GET',
  path: '/api/accounts/:id/billing/invoices',
  service: 'command',
  access: 'account_admin',
  params: idParam,
  query: paging.extend({
    /** Only the invoices in this state (open: still to be paid); all when absent. */
    status: z.enum(INVOICE_STATUSES, { error: `must be one of ${INVOICE_STATUSES.join(', ')}` }).optional(),
  }),
  response: z.object({ data: z.array(InvoiceView), pagination: Pagination }),
  action: 'retrieve invoices',
});

export const getBillingUpdateUrl = route({
  method: 'POST',
  path: '/api/stripe/get_billing_update_url',
  service: 'command',
  access: 'account_admin',
  body: z.object({ account_id: uuid(), update_type: z.enum(['funder', 'account']).default('account') }),
  response: dataEnvelope(z.object({ url: z.string() })),
  action: 'retrieve payment method update URL',
});

export const getPaymentMethod = route({
  method: 'POST',
  path: '/api/stripe/get_payment_method',
  service: 'command',
  access: 'account_admin',
  body: z.object({ account_id: uuid() }),
  response: dataEnvelope(
    z.object({
      card: z
        .object({
          brand: z.string(),
          last4: z.string(),
          exp_month: z.number().int(),
          exp_year: z.number().int(),
        })
        .nullable(),
    }),
  ),
  action: 'retrieve payment method',
});

/**
 * How the card panel gets a token: in billing test mode our own form posts the card to the test
 * server's token endpoint as Stripe.js would; with a publishable key, Stripe Elements.
 */
export const getBillingConfig = route({
  method: 'GET',
  path: '/api/billing/config',
  service: 'command',
  access: 'session',
  response: dataEnvelope(
    z.object({
      mode: z.enum(['test', 'live']),
      publishable_key: z.string(),
      /** Test mode only: where the card form posts (`POST {token_url}` with card[number]…). */
      token_url: z.string().nullable(),
      prices: z.object({ BASIC: z.number().int(), PRO: z.number().int() }),
    }),
  ),
  action: 'create subscription',
});
