import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockCustomer, type Harness, JAN_1_2026, startHarness } from './testing.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('invoices', () => {
  it('lists newest first with limit, starting_after and has_more', async () => {
    const { clock, customer } = await clockCustomer(h.stripe);
    await h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: h.prices.basic.id }] });
    // Three renewals: 1 Feb, 1 Mar, 1 Apr (each finalized an hour after it is drafted).
    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: Date.UTC(2026, 3, 1, 2) / 1000 });

    const all = await h.stripe.invoices.list({ customer: customer.id });
    expect(all.data.map((i) => i.billing_reason)).toEqual([
      'subscription_cycle',
      'subscription_cycle',
      'subscription_cycle',
      'subscription_create',
    ]);
    expect(all.data.map((i) => i.created)).toEqual(
      [Date.UTC(2026, 3, 1), Date.UTC(2026, 2, 1), Date.UTC(2026, 1, 1), Date.UTC(2026, 0, 1)].map(
        (t) => t / 1000,
      ),
    );
    const first = await h.stripe.invoices.list({ customer: customer.id, limit: 3 });
    expect(first.has_more).toBe(true);
    const rest = await h.stripe.invoices.list({
      customer: customer.id,
      limit: 3,
      starting_after: first.data[2]!.id,
    });
    expect(rest).toMatchObject({ has_more: false, data: [{ id: all.data[3]!.id }] });
    const before = await h.stripe.invoices.list({
      customer: customer.id,
      limit: 2,
      ending_before: all.data[3]!.id,
    });
    expect(before.data.map((i) => i.id)).toEqual([all.data[1]!.id, all.data[2]!.id]);

    const paged: string[] = [];
    for await (const invoice of h.stripe.invoices.list({ customer: customer.id, limit: 1 }))
      paged.push(invoice.id);
    expect(paged).toEqual(all.data.map((i) => i.id));
    expect(all.data.map((i) => i.number?.slice(-4))).toEqual(['0004', '0003', '0002', '0001']);
  });

  it('serves a real PDF and a hosted page for a finalized invoice', async () => {
    const { customer } = await clockCustomer(h.stripe, 'tok_visa', JAN_1_2026);
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: h.prices.pro.id }],
      expand: ['latest_invoice'],
    });
    const invoice = sub.latest_invoice as Stripe.Invoice;
    const pdfResponse = await fetch(invoice.invoice_pdf!);
    expect(pdfResponse.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await pdfResponse.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdf.toString('latin1');
    expect(text).toContain('($945.00)');
    expect(text).toContain(`(${invoice.number})`);
    expect(text).toContain('(Jan 1, 2026)');
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    // The cross-reference table points at each object.
    const xref = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(text.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...text.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    offsets.forEach((offset, i) => {
      expect(text.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true);
    });

    const page = await fetch(invoice.hosted_invoice_url!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(invoice.number!);
    expect(html).toContain('$945.00');
    expect((await fetch(`${h.server.url}/invoice/test_unknown/pdf`)).status).toBe(404);
  });
});
