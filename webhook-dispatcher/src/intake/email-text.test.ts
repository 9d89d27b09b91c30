import { describe, expect, it } from 'vitest';
import { emailText, type WebhookPayload } from './payload.ts';

// The notification e-mail is read by people: the EIN as the app shows it. The webhook's JSON, read by
// programs, keeps the documented 9 digits.

const payload: WebhookPayload = {
  type: 'merchant.note_added',
  timestamp: '2026-04-12T10:00:00.000Z',
  data: {
    merchant_ein: '451234567',
    merchant_name: 'Sunrise Diner Inc',
    action: 'Note Added',
    note_category: 'Slow Pay',
    note: 'Paid 40 days late.',
    merchant_url: 'https://mrn.example/merchants/m-1',
    action_performed_by: 'Harbor Business Advance',
  },
};

describe('emailText', () => {
  it('writes the EIN as 12-3456789 in the subject and the body', () => {
    const mail = emailText(payload);
    expect(mail.subject).toBe('Note Added: Sunrise Diner Inc (EIN 45-1234567)');
    expect(mail.text.split('\n')).toContain('Merchant EIN: 45-1234567');
    expect(mail.text).not.toContain('451234567');
  });

  it('leaves the payload (the webhook body) as documented: 9 digits', () => {
    emailText(payload);
    expect(payload.data.merchant_ein).toBe('451234567');
  });
});
