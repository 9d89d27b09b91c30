import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockCustomer, DAY, type Harness, HOUR, JAN_1_2026, startHarness } from './testing.ts';

// Stripe's "mark the subscription as unpaid" setting (`afterFinalRetry: 'unpaid'`), which the product
// runs billing test mode with (issue 21): after the last failed retry the subscription stays, unpaid and
// charged no more; its open invoice is paid on the hosted invoice page, which makes it active again.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ afterFinalRetry: 'unpaid' });
});
afterAll(async () => {
  await h.close();
});

const FEB_1_2026 = Date.UTC(2026, 1, 1) / 1000;

/** Posts the hosted invoice page's card form. */
const payOnPage = (url: string, number: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `number=${number}&exp_month=12&exp_year=2034&cvc=123`,
    redirect: 'manual',
  });

describe('an unpaid subscription and its hosted invoice page', () => {
  it('stays unpaid after the last retry; a refused card changes nothing; paying the invoice makes it active', async () => {
    const { clock, customer } = await clockCustomer(h.stripe, 'tok_visa', JAN_1_2026);
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.basic.id }],
    });
    // Then a card that saves fine and fails every charge becomes the customer's default.
    const failing = await h.stripe.paymentMethods.create({
      type: 'card',
      card: { token: 'tok_chargeCustomerFail' },
    });
    await h.stripe.paymentMethods.attach(failing.id, { customer: customer.id });
    await h.stripe.customers.update(customer.id, {
      invoice_settings: { default_payment_method: failing.id },
    });

    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: FEB_1_2026 + HOUR + 16 * DAY });
    const unpaid = await h.stripe.subscriptions.retrieve(sub.id);
    expect(unpaid.status).toBe('unpaid');
    const open = (await h.stripe.invoices.list({ customer: customer.id, status: 'open' })).data;
    expect(open).toHaveLength(1);
    const invoice = open[0]!;
    expect(invoice).toMatchObject({ attempt_count: 4, next_payment_attempt: null });

    const page = await (await fetch(invoice.hosted_invoice_url!)).text();
    expect(page).toContain('Pay invoice');
    const refused = await payOnPage(invoice.hosted_invoice_url!, '4000000000000341');
    expect(refused.status).toBe(402);
    expect(await refused.text()).toContain('Your card was declined.');
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('unpaid');

    const paid = await payOnPage(invoice.hosted_invoice_url!, '4242424242424242');
    expect(paid.status).toBe(303);
    expect(await h.stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'paid' });
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
    // The card paid with is the customer's default now, so the next renewal is charged to it.
    const after = await h.stripe.customers.retrieve(customer.id);
    expect(after.deleted).toBeUndefined();
    const pm = (after as { invoice_settings: { default_payment_method: string } }).invoice_settings
      .default_payment_method;
    expect((await h.stripe.paymentMethods.retrieve(pm)).card?.last4).toBe('4242');
    // Paid, the page has no form any more.
    expect(await (await fetch(invoice.hosted_invoice_url!)).text()).not.toContain('Pay invoice');
  });
});
