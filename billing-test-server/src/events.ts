import type Stripe from 'stripe';
import { wallClock } from './calendar.ts';
import { newId } from './ids.ts';
import type { State } from './state.ts';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `data.previous_attributes`: the old values of what changed. Nested hashes are diffed key by key,
 * as Stripe does (`{ items: … }` and other lists are given whole).
 */
export function previousAttributes(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[key];
    const b = after[key];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (isPlainObject(a) && isPlainObject(b) && a.object !== 'list') out[key] = previousAttributes(a, b);
    else out[key] = a === undefined ? null : a;
  }
  return out;
}

/**
 * Builds and keeps the event. `created` is the object's own time (a test clock's frozen time when it
 * caused the change), so a consumer that orders by it sees the simulated timeline.
 */
export function recordEvent(
  state: State,
  opts: {
    type: Stripe.Event.Type;
    object: object;
    before?: object;
    created: number | undefined;
    apiVersion: string;
    pendingWebhooks: number;
  },
): Stripe.EventBase {
  const snapshot = structuredClone(opts.object) as Record<string, unknown>;
  const data: Stripe.Event.Data = { object: snapshot };
  if (opts.before) {
    data.previous_attributes = previousAttributes(opts.before as Record<string, unknown>, snapshot);
  }
  const event: Stripe.EventBase = {
    id: newId('evt'),
    object: 'event',
    api_version: opts.apiVersion,
    created: opts.created ?? wallClock(),
    data,
    livemode: false,
    pending_webhooks: opts.pendingWebhooks,
    request: state.request ? { id: state.request.id, idempotency_key: state.request.idempotencyKey } : null,
    type: opts.type,
  };
  state.events.set(event.id, event);
  return event;
}
