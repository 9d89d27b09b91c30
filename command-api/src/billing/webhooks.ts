import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { accounts, stripeEvents } from '../aggregates.ts';
import { runInBackground } from '../background.ts';
import { transact } from '../command-handler.ts';
import type { CommandDeps } from '../context.ts';
import type { AccountCommand } from '../domain/account/account.ts';
import type { StripeSubscriptionState } from '../domain/account/account-billing.ts';

export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhooks';

const iso = (unix: number | null | undefined) => (unix ? new Date(unix * 1000).toISOString() : null);
const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * POST /api/stripe/webhooks: the raw body is verified against `Stripe-Signature` (unsigned, wrongly
 * signed or older than five minutes → 400, nothing applied), then applied once: the event's id is
 * recorded in the same append as what it changed. Outside the route table: Stripe calls it, not our
 * clients, and it needs the body's exact bytes.
 */
export function registerStripeWebhooks(deps: CommandDeps): void {
  deps.app.register(async (scope) => {
    // Only in this scope: the body stays the bytes Stripe signed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(STRIPE_WEBHOOK_PATH, async (request, reply) => {
      let event: Stripe.Event;
      try {
        const signature = request.headers['stripe-signature'];
        event = deps.billing.verifyWebhook(
          Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          typeof signature === 'string' ? signature : undefined,
        );
      } catch {
        return reply.code(400).send({ errors: 'The Stripe signature is missing, wrong or too old.' });
      }
      await applyStripeEvent(deps, event);
      return reply.send({ received: true });
    });
  });
}

/** The account command a Stripe event amounts to, or nothing for events billing does not follow. */
async function commandFor(
  deps: CommandDeps,
  event: Stripe.Event,
): Promise<{ accountId: string; command: AccountCommand } | null> {
  switch (event.type) {
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      const accountId =
        subscription.metadata.account_id ??
        (await deps.billing.accountOfCustomer(idOf(subscription.customer)!));
      if (!accountId) return null;
      const item = subscription.items.data[0];
      const state: StripeSubscriptionState = {
        subscriptionId: subscription.id,
        status: subscription.status,
        planLevel: item ? await deps.billing.planOfPrice(item.price.id) : null,
        currentPeriodEnd: iso(item?.current_period_end),
      };
      return { accountId, command: { type: 'ApplyStripeSubscription', subscription: state } };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const customer = idOf(invoice.customer);
      const accountId = customer ? await deps.billing.accountOfCustomer(customer) : null;
      if (!accountId || !invoice.id) return null;
      const invoiceCreatedAt = new Date(invoice.created * 1000).toISOString();
      return event.type === 'invoice.paid'
        ? {
            accountId,
            command: {
              type: 'RecordInvoicePaid',
              invoiceId: invoice.id,
              invoiceCreatedAt,
              currentPeriodEnd: iso(invoice.lines.data[0]?.period.end),
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

export async function applyStripeEvent(deps: CommandDeps, event: Stripe.Event): Promise<void> {
  const target = await commandFor(deps, event);
  const { value } = await transact(
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
      if (recorded.events.length === 0 || !target) return [];
      return (await unit.decide(accounts, target.accountId, target.command)).events;
    },
  );
  if (target && value.some((e) => e.type === 'AccountRenewalFailed')) {
    runInBackground(deps.logger, 'failed renewal e-mail', () => mailRenewalFailed(deps, target.accountId));
  }
}

/**
 * The account's admins hear of a failed renewal at once (accounts spec §4: a bar and an e-mail); a
 * funder without admins yet hears through its primary contact.
 */
async function mailRenewalFailed(deps: CommandDeps, accountId: string): Promise<void> {
  const { rows } = await deps.pool.query<{ email: string; first_name: string | null; name: string }>(
    `select u.email, u.first_name, a.name from read.users u join read.accounts a on a.id = u.account_id
      where u.account_id = $1 and u.is_admin and u.archived_at is null
     union all
     select a.primary_contact_email, null, a.name from read.accounts a
      where a.id = $1 and not exists (
        select 1 from read.users u where u.account_id = a.id and u.is_admin and u.archived_at is null)`,
    [accountId],
  );
  for (const admin of rows) {
    await deps.mailer.send({
      to: admin.email,
      subject: `${deps.config.PRODUCT_NAME}: your membership payment failed`,
      text:
        `Hello${admin.first_name ? ` ${admin.first_name}` : ''},\n\nThe renewal payment for ${admin.name}'s ` +
        `${deps.config.PRODUCT_NAME} membership was declined. We will try again; to keep your access, update ` +
        `the card on file:\n\n${deps.publicUrl}/account?tab=billing\n\nIf every retry fails the membership ends.\n`,
    });
  }
}
