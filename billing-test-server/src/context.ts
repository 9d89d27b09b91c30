import type Stripe from 'stripe';
import { wallClock } from './calendar.ts';
import type { State } from './state.ts';

/** What the resource modules share: the state, the server's address and the event recorder. */
export interface Ctx {
  readonly state: State;
  baseUrl(): string;
  /** Records an event (and queues its webhook); `before` gives `data.previous_attributes`. */
  emit(type: Stripe.Event.Type, object: object, before?: object): void;
}

/** Customers on a test clock live at its frozen time; everyone else at the wall clock. */
export function customerNow(state: State, customerId: string): number {
  const customer = state.customers.get(customerId);
  const clockId = typeof customer?.test_clock === 'string' ? customer.test_clock : null;
  const clock = clockId ? state.clocks.get(clockId) : undefined;
  return clock ? clock.frozen_time : wallClock();
}

/** On the wire a decimal is a string; the SDK turns it into its own Decimal when it reads a response. */
export const decimal = (value: number | string): Stripe.Decimal => String(value) as unknown as Stripe.Decimal;

export const list = <T>(data: T[], url: string): Stripe.ApiList<T> => ({
  object: 'list',
  data,
  has_more: false,
  url,
});
