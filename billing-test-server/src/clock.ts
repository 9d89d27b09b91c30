import type Stripe from 'stripe';
import { DAY, HOUR, wallClock } from './calendar.ts';
import { collect, endSubscription, finalizeAndCollect } from './collection.ts';
import type { Ctx } from './context.ts';
import { invalidRequest, resourceMissing } from './errors.ts';
import { checkKnown, optionalString, type Params, requiredInteger } from './form.ts';
import { newId } from './ids.ts';
import { subscriptionIdOf } from './invoices.ts';
import type { State } from './state.ts';
import { currentPeriod, expireIncomplete, renew } from './subscriptions.ts';

/** Test clocks: the only way time passes for billing here (customers without one never renew). */

const INCOMPLETE_EXPIRES_AFTER = 23 * HOUR;
/** Enough for years of monthly renewals with retries; a bound so no request can loop for ever. */
const MAX_STEPS = 5_000;

export function createClock(ctx: Ctx, params: Params): Stripe.TestHelpers.TestClock {
  checkKnown(params, ['frozen_time', 'name', 'expand']);
  const frozenTime = requiredInteger(params, 'frozen_time');
  const created = wallClock();
  const clock: Stripe.TestHelpers.TestClock = {
    id: newId('clock'),
    object: 'test_helpers.test_clock',
    created,
    deletes_after: created + 30 * DAY,
    frozen_time: frozenTime,
    livemode: false,
    name: optionalString(params, 'name') ?? null,
    status: 'ready',
    status_details: {},
  };
  ctx.state.clocks.set(clock.id, clock);
  ctx.emit('test_helpers.test_clock.created', clock);
  return clock;
}

export function getClock(state: State, id: string): Stripe.TestHelpers.TestClock {
  const clock = state.clocks.get(id);
  if (!clock) throw resourceMissing('test_clock', id, 'id');
  return clock;
}

interface Due {
  at: number;
  /** Lower runs first among things due at the same second: charge before renewing. */
  rank: number;
  run: () => void;
}

function nextDue(ctx: Ctx, clockId: string, target: number): Due | null {
  const { state } = ctx;
  const onClock = new Set(
    [...state.customers.values()].filter((c) => c.test_clock === clockId).map((c) => c.id),
  );
  let best: Due | null = null;
  const consider = (due: Due) => {
    if (due.at > target) return;
    if (!best || due.at < best.at || (due.at === best.at && due.rank < best.rank)) best = due;
  };
  for (const invoice of state.invoices.values()) {
    if (!onClock.has(invoice.customer as string)) continue;
    if (invoice.status === 'draft' && invoice.automatically_finalizes_at !== null) {
      const at = invoice.automatically_finalizes_at;
      consider({ at, rank: 0, run: () => finalizeAndCollect(ctx, invoice, at) });
    } else if (invoice.status === 'open' && invoice.next_payment_attempt !== null) {
      const at = invoice.next_payment_attempt;
      const subId = subscriptionIdOf(invoice);
      const sub = subId ? state.subscriptions.get(subId) : undefined;
      if (sub && (sub.status === 'canceled' || sub.status === 'incomplete_expired')) continue;
      consider({ at, rank: 1, run: () => collect(ctx, invoice, at) });
    }
  }
  for (const sub of state.subscriptions.values()) {
    if (!onClock.has(sub.customer as string)) continue;
    if (sub.status === 'incomplete') {
      const at = sub.created + INCOMPLETE_EXPIRES_AFTER;
      consider({ at, rank: 2, run: () => expireIncomplete(ctx, sub, at) });
    } else if (sub.status === 'active' || sub.status === 'past_due') {
      const at = currentPeriod(sub).end;
      consider({
        at,
        rank: 3,
        run: () =>
          sub.cancel_at_period_end
            ? endSubscription(ctx, sub, at, 'cancellation_requested')
            : renew(ctx, sub, at),
      });
    }
  }
  return best;
}

/**
 * Moves the clock to `frozen_time`, running everything that falls due on the way in time order
 * (renewal drafts, their finalization an hour later, payment retries, expiries), each at its own
 * moment. Stripe advances asynchronously; here it is done when the request answers, status `ready`.
 */
export function advanceClock(ctx: Ctx, id: string, params: Params): Stripe.TestHelpers.TestClock {
  checkKnown(params, ['frozen_time', 'expand']);
  const clock = getClock(ctx.state, id);
  const target = requiredInteger(params, 'frozen_time');
  if (target <= clock.frozen_time) {
    throw invalidRequest(
      'The test clock can only be advanced to a time after its current frozen_time.',
      'frozen_time',
    );
  }
  // What falls due while the clock moves is Stripe's own doing, not part of this request.
  const request = ctx.state.request;
  ctx.state.request = null;
  ctx.emit('test_helpers.test_clock.advancing', {
    ...clock,
    status: 'advancing',
    status_details: { advancing: { target_frozen_time: target } },
  });
  try {
    for (let step = 0; ; step++) {
      if (step >= MAX_STEPS) {
        throw invalidRequest(
          'Advancing this far would run too many billing cycles; advance in smaller steps.',
          'frozen_time',
        );
      }
      const due = nextDue(ctx, id, target);
      if (!due) break;
      clock.frozen_time = due.at;
      due.run();
    }
  } finally {
    ctx.state.request = request;
  }
  clock.frozen_time = target;
  clock.status = 'ready';
  clock.status_details = {};
  ctx.emit('test_helpers.test_clock.ready', clock);
  return clock;
}
