import { PLANS } from '@mrn/contracts';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { createBillingGateway } from './gateway.ts';

// The billing gateway against Stripe's own test mode: the same calls the product makes against the
// billing test server. Runs only with STRIPE_SECRET_KEY=sk_test_… (no network to Stripe here, so it is
// skipped on this project's machines and CI; see README). It creates the two lookup-key prices when
// the Stripe account lacks them.

const key = process.env.STRIPE_SECRET_KEY ?? '';
const live = key.startsWith('sk_test_');

describe.skipIf(!live)('billing gateway against Stripe test mode (STRIPE_SECRET_KEY=sk_test_…)', () => {
  // Made inside the tests: a skipped suite's body still runs, and Stripe refuses an empty key.
  const clients = () => ({
    stripe: new Stripe(key),
    gateway: createBillingGateway({ secretKey: key, publishableKey: '', webhookSecret: 'whsec_unused' }),
  });

  async function ensurePrices(stripe: Stripe) {
    const existing = await stripe.prices.list({
      lookup_keys: ['basic_monthly', 'pro_monthly'],
      active: true,
    });
    for (const [plan, lookup] of [
      ['BASIC', 'basic_monthly'],
      ['PRO', 'pro_monthly'],
    ] as const) {
      if (existing.data.some((p) => p.lookup_key === lookup)) continue;
      const product = await stripe.products.create({ name: `Merchant Risk Network ${plan}` });
      await stripe.prices.create({
        product: product.id,
        currency: 'usd',
        unit_amount: PLANS[plan].priceCents,
        recurring: { interval: 'month' },
        lookup_key: lookup,
      });
    }
  }

  it('subscribes, previews and applies an upgrade pro rata, lists the invoice and cancels', async () => {
    const { stripe, gateway } = clients();
    await ensurePrices(stripe);
    const declined = gateway.subscribe({
      accountId: 'contract-test',
      email: 'contract@merchantrisk.example',
      token: 'tok_chargeDeclined',
      planLevel: 'BASIC',
      customerId: null,
    });
    await expect(declined).rejects.toBeInstanceOf(Stripe.errors.StripeCardError);

    const started = await gateway.subscribe({
      accountId: 'contract-test',
      email: 'contract@merchantrisk.example',
      token: 'tok_visa',
      planLevel: 'BASIC',
      customerId: null,
    });
    const preview = await gateway.previewPlanChange(started.customerId, started.subscriptionId, 'PRO');
    expect(preview.prorationAmount).toBeGreaterThan(0);
    expect(preview.prorationAmount).toBeLessThanOrEqual(PLANS.PRO.priceCents - PLANS.BASIC.priceCents);
    // The plan version rides on the subscription's metadata, in Stripe's answer as in the test server's.
    expect(await gateway.changePlan(started.subscriptionId, 'PRO')).toEqual({ planVersion: 1 });
    const { invoices } = await gateway.invoices(started.customerId, 1, 10);
    expect(invoices[0]?.amount_paid).toBe(PLANS.BASIC.priceCents);
    expect((await gateway.paymentMethod(started.customerId))?.last4).toBe('4242');
    expect(await gateway.portalUrl(started.customerId, 'https://example.com/account')).toMatch(/^https:\/\//);
    await gateway.cancel(started.subscriptionId);
  });
});
