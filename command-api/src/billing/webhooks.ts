import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AccountCommand } from '../accounts/account.ts';
import type { StripeSubscriptionState } from '../accounts/account-billing.ts';
import { accounts } from '../accounts/aggregate.ts';
import { transact } from '../command-handler.ts';
import type { CommandDeps } from '../context.ts';
import { stripeEvents } from './aggregate.ts';
import { withBillingLock } from './billing-lock.ts';
import { planVersionOf, WEBHOOK_TEXTS, WebhookRefused } from './gateway.ts';

export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhooks';

const iso = (unix: number | null | undefined) => (unix ? new Date(unix * 1000).toISOString() : null);
const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

// What billing reads of an event, checked before anything is applied: a signed event of another shape
// (no `data.object`, a subscription without items…) is a 400 naming what is wrong, and nothing is
// written. Ids are Stripe's plain `prefix_…` text, so nothing a projector cannot store enters the log.
const stripeId = (prefix: string) =>
  z
    .string()
    .max(255)
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9_]+$`), `is not a Stripe ${prefix}_… id`);
const unix = z.number().int().nonnegative();
const customerRef = z.union([stripeId('cus'), z.looseObject({ id: stripeId('cus') })]);

const eventShape = z.looseObject({
  id: stripeId('evt'),
  type: z
    .string()
    .max(255)
    .regex(/^[a-z0-9_.]+$/, 'is not a Stripe event type'),
  created: unix,
  data: z.looseObject(
    { object: z.record(z.string(), z.unknown(), { error: 'is missing or not an object' }) },
    { error: 'is missing or not an object' },
  ),
});
const subscriptionShape = z.looseObject({
  id: stripeId('sub'),
  status: z.string().max(64),
  customer: customerRef,
  metadata: z.record(z.string(), z.string()).nullish(),
  items: z.looseObject({
    data: z.array(
      z.looseObject({
        price: z.looseObject({ id: z.string().min(1).max(255) }),
        current_period_end: unix.nullish(),
      }),
    ),
  }),
});
const invoiceShape = z.looseObject({
  id: stripeId('in'),
  customer: customerRef.nullable(),
  created: unix,
  next_payment_attempt: unix.nullish(),
  // The subscription it bills (API 2025+: under `parent`); a one-off invoice has none.
  parent: z
    .looseObject({
      subscription_details: z
        .looseObject({ subscription: z.union([stripeId('sub'), z.looseObject({ id: stripeId('sub') })]) })
        .nullish(),
    })
    .nullish(),
  lines: z.looseObject({
    data: z.array(z.looseObject({ period: z.looseObject({ end: unix }).optional() })),
  }),
});

/** A funder's id as the product writes it into a customer's and subscription's `account_id`. */
const FUNDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type EventShape = z.infer<typeof eventShape>;
type StripeEvent =
  | { kind: 'subscription'; event: EventShape; subscription: z.infer<typeof subscriptionShape> }
  | { kind: 'invoice'; event: EventShape; invoice: z.infer<typeof invoiceShape> }
  | { kind: 'other'; event: EventShape };

const problemOf = (error: z.ZodError, prefix: string[] = []) =>
  error.issues
    .slice(0, 3)
    .map((issue) => `${[...prefix, ...issue.path.map(String)].join('.') || 'the event'}: ${issue.message}`)
    .join('; ');

/** The event as billing reads it, or what is wrong with it. */
export function readStripeEvent(raw: unknown): { event: StripeEvent } | { problem: string } {
  const envelope = eventShape.safeParse(raw);
  if (!envelope.success) return { problem: problemOf(envelope.error) };
  const event = envelope.data;
  const object = event.data.object;
  const at = ['data', 'object'];
  switch (event.type) {
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = subscriptionShape.safeParse(object);
      return subscription.success
        ? { event: { kind: 'subscription', event, subscription: subscription.data } }
        : { problem: problemOf(subscription.error, at) };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = invoiceShape.safeParse(object);
      return invoice.success
        ? { event: { kind: 'invoice', event, invoice: invoice.data } }
        : { problem: problemOf(invoice.error, at) };
    }
    default:
      return { event: { kind: 'other', event } };
  }
}

/**
 * POST /api/stripe/webhooks: the raw body is verified against `Stripe-Signature` (unsigned, wrongly
 * signed, or made more than five minutes before or after now → 400, nothing applied), its shape is
 * checked (400 naming what is wrong, nothing applied), then it is applied once: the event's id is
 * recorded in the same append as what it changed. An event for a customer or funder this installation
 * does not know is acknowledged (200) and ignored, so Stripe does not retry it for days. Outside the
 * route table: Stripe calls it, not our clients, and it needs the body's exact bytes.
 */
export function registerStripeWebhooks(deps: CommandDeps): void {
  deps.app.register(async (scope) => {
    // Only in this scope: the body stays the bytes Stripe signed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(STRIPE_WEBHOOK_PATH, async (request, reply) => {
      let verified: unknown;
      try {
        const signature = request.headers['stripe-signature'];
        verified = deps.billing.verifyWebhook(
          Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          typeof signature === 'string' ? signature : undefined,
        );
      } catch (err) {
        return reply
          .code(400)
          .send({ errors: err instanceof WebhookRefused ? err.message : WEBHOOK_TEXTS.signature });
      }
      const read = readStripeEvent(verified);
      if ('problem' in read) {
        return reply.code(400).send({ errors: `The Stripe event cannot be applied: ${read.problem}.` });
      }
      await applyStripeEvent(deps, read.event);
      return reply.send({ received: true });
    });
  });
}

/** The account command a Stripe event amounts to, or nothing for events billing does not follow. */
async function commandFor(
  deps: CommandDeps,
  read: StripeEvent,
): Promise<{ accountId: string | null; command: AccountCommand } | null> {
  const { event } = read;
  switch (read.kind) {
    case 'subscription': {
      const { subscription } = read;
      const customer = idOf(subscription.customer);
      const named =
        subscription.metadata?.account_id ??
        (customer ? await deps.billing.accountOfCustomer(customer) : null);
      const accountId = named && FUNDER_ID.test(named) ? named : null;
      const item = subscription.items.data[0];
      const state: StripeSubscriptionState = {
        subscriptionId: subscription.id,
        status: subscription.status,
        planLevel: item ? await deps.billing.planOfPrice(item.price.id) : null,
        currentPeriodEnd: iso(item?.current_period_end),
        planVersion: planVersionOf(subscription),
        eventCreatedAt: new Date(event.created * 1000).toISOString(),
      };
      return { accountId, command: { type: 'ApplyStripeSubscription', subscription: state } };
    }
    case 'invoice': {
      const { invoice } = read;
      const customer = idOf(invoice.customer);
      const named = customer ? await deps.billing.accountOfCustomer(customer) : null;
      const accountId = named && FUNDER_ID.test(named) ? named : null;
      const invoiceCreatedAt = new Date(invoice.created * 1000).toISOString();
      return event.type === 'invoice.paid'
        ? {
            accountId,
            command: {
              type: 'RecordInvoicePaid',
              invoiceId: invoice.id,
              invoiceCreatedAt,
              currentPeriodEnd: iso(invoice.lines.data[0]?.period?.end),
              subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
            },
          }
        : {
            accountId,
            command: {
              type: 'RecordInvoiceFailed',
              invoiceId: invoice.id,
              invoiceCreatedAt,
              nextPaymentAttempt: iso(invoice.next_payment_attempt),
            },
          };
    }
    default:
      return null;
  }
}

export async function applyStripeEvent(deps: CommandDeps, read: StripeEvent): Promise<void> {
  const { event } = read;
  const target = await commandFor(deps, read);
  // Under the account's billing lock, as the billing routes are: a Cancel Membership (or a plan change)
  // asks the provider first and records after; the provider's webhook for that very change, arriving
  // in between, decided first and left the route's own record refused (409 to a cancel that happened).
  const locked = <T>(work: () => Promise<T>) =>
    target?.accountId ? withBillingLock(deps.pool, target.accountId, work) : work();
  const { value } = await locked(() =>
    transact(
      deps,
      {
        ctx: { now: deps.clock.now() },
        metadata: { source: 'stripe', correlationId: event.id, causationId: randomUUID() },
      },
      async (unit) => {
        const recorded = await unit.decide(stripeEvents, event.id, {
          type: 'ApplyStripeEvent',
          eventId: event.id,
          eventType: event.type,
        });
        if (recorded.events.length === 0 || !target) return { events: [], unknown: false };
        // A customer or funder this installation does not know (another installation's, or one since
        // deleted): Stripe would retry a refusal for days, so it is acknowledged and changes nothing.
        const account = target.accountId ? await unit.load(accounts, target.accountId) : null;
        if (!target.accountId || account?.status !== 'open') return { events: [], unknown: true };
        return {
          events: (await unit.decide(accounts, target.accountId, target.command)).events,
          unknown: false,
        };
      },
    ),
  );
  if (value.unknown) {
    deps.logger.warn(
      { stripeEvent: event.id, type: event.type, accountId: target?.accountId ?? null },
      'Stripe event for a customer or funder this installation does not know (or an archived one): acknowledged and ignored',
    );
  }
  // A failed renewal's e-mail comes from the log (renewal-failed-mail-source.ts).
}
