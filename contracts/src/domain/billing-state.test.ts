import { describe, expect, it } from 'vitest';
import { type BillingFields, billingStateOf, billingSummary } from './billing-state.ts';

// One billing state from the account's fields (issue 21 item 2): every screen and the revenue widget
// read it, so a past-due funder is never "Active" on one screen and failing on another.

const base: BillingFields = {
  membership_status: 'active',
  plan_level: 'BASIC',
  billed: true,
  payment_failed: false,
  next_payment_attempt: null,
  current_period_end: '2026-12-26T12:00:00.000Z',
  membership_ended_reason: null,
  membership_ended_at: null,
};
const day = (iso: string) => iso.slice(0, 10);

describe('billingStateOf', () => {
  it('an active billed membership: Active, renews, paying, plan changes open', () => {
    const s = billingStateOf(base);
    expect(s).toMatchObject({
      kind: 'active',
      label: 'Active',
      tone: 'success',
      paying: true,
      manageable: true,
    });
    expect(billingSummary(s, day)).toBe('The BASIC membership is active and renews on 2026-12-26.');
  });

  it('a failed renewal being retried: Past due, never Active, with the next attempt and no renewal claim', () => {
    const s = billingStateOf({
      ...base,
      payment_failed: true,
      next_payment_attempt: '2026-12-29T12:00:00.000Z',
    });
    expect(s).toMatchObject({
      kind: 'past_due',
      label: 'Past due',
      inForce: true,
      paying: true,
      updateCard: true,
      payOpenInvoice: true,
      nextAttempt: '2026-12-29T12:00:00.000Z',
    });
    const text = billingSummary(s, day);
    expect(text).toContain('tries again on 2026-12-29');
    expect(text).not.toMatch(/renews|active/);
  });

  it('retries exhausted (unpaid): Lapsed, says why, the open invoice restores it, not revenue', () => {
    const s = billingStateOf({
      ...base,
      membership_status: 'canceled',
      billed: false,
      membership_ended_reason: 'unpaid',
      membership_ended_at: '2027-01-14T12:00:00.000Z',
    });
    expect(s).toMatchObject({
      kind: 'lapsed',
      lapse: 'unpaid',
      inForce: false,
      paying: false,
      payOpenInvoice: true,
    });
    expect(billingSummary(s, day)).toBe(
      'The membership lapsed on 2027-01-14: the renewal payment failed and the card payment provider stopped retrying. Pay the open invoice to restore it.',
    );
  });

  it('ended by the provider: Lapsed with the reason, a new membership to start, no invoice to restore it', () => {
    const afterFailure = billingStateOf({
      ...base,
      membership_status: 'canceled',
      billed: false,
      membership_ended_reason: 'provider_payment_failed',
    });
    expect(afterFailure).toMatchObject({
      kind: 'lapsed',
      lapse: 'payment_failed',
      payOpenInvoice: false,
      canStart: true,
    });
    expect(billingSummary(afterFailure, day)).toMatch(/after the renewal payment failed/);
    const other = billingStateOf({
      ...base,
      membership_status: 'canceled',
      membership_ended_reason: 'provider',
    });
    expect(billingSummary(other, day)).toBe(
      'The card payment provider ended the membership. Start a new membership to continue.',
    );
  });

  it('cancelled on request, a cancelled trial, a trial, none', () => {
    const cancelled = { ...base, membership_status: 'canceled' as const, billed: false };
    expect(billingStateOf({ ...cancelled, membership_ended_reason: 'requested' })).toMatchObject({
      kind: 'canceled',
      label: 'Cancelled',
    });
    expect(
      billingSummary(billingStateOf({ ...cancelled, membership_ended_reason: 'trial_canceled' }), day),
    ).toMatch(/^The trial was cancelled/);
    expect(billingStateOf({ ...base, membership_status: 'trialing', billed: false })).toMatchObject({
      kind: 'trialing',
      label: 'Trial',
      inForce: true,
      paying: false,
    });
    expect(billingStateOf({ ...base, membership_status: 'none', billed: false })).toMatchObject({
      kind: 'none',
      canStart: true,
      paying: false,
    });
  });

  it('a membership opened active without billing is not revenue and has no plan to manage', () => {
    const s = billingStateOf({ ...base, plan_level: 'PRO', billed: false });
    expect(s).toMatchObject({
      kind: 'complimentary',
      label: 'Active (not billed)',
      paying: false,
      manageable: false,
    });
  });
});
