import { formatEin, type ShoppedWebhookData, type SignalsChangedWebhookData } from '@mrn/contracts';

// What a watcher is sent: the webhook's JSON (a Standard Webhooks payload) and the e-mail made from it.

/** What a subscriber is told (accounts spec §3), as the `data` of a Standard Webhooks payload. */
export interface NotificationData {
  merchant_ein: string;
  merchant_name: string;
  action: 'Note Added' | 'Note Updated' | 'Merchant Updated' | 'Merchant Added';
  note_category: string | null;
  note: string | null;
  merchant_url: string;
  action_performed_by: string;
}

/** A watched merchant is being shopped (issue 24): the shape is the contracts' (the guide shows it). */
export type ShoppedData = ShoppedWebhookData;

export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: NotificationData | ShoppedData | SignalsChangedWebhookData;
}

export const TYPE_OF_ACTION: Record<NotificationData['action'], string> = {
  'Merchant Added': 'merchant.added',
  'Merchant Updated': 'merchant.updated',
  'Note Added': 'merchant.note_added',
  'Note Updated': 'merchant.note_updated',
};

/** The merchant's page in the app, from the installation's public URL. */
export const merchantUrl = (ctx: { publicUrl: string }, merchantId: string) =>
  `${ctx.publicUrl.replace(/\/+$/, '')}/merchants/${merchantId}`;

/**
 * The notification e-mail. People read it, so the EIN is written as the app shows it (12-3456789); the
 * webhook's JSON keeps the documented 9 digits (`merchant_ein`), which programs compare.
 */
export function emailText(p: WebhookPayload): { subject: string; text: string } {
  const d = p.data;
  const ein = formatEin(d.merchant_ein);
  if (d.action === 'Signals Changed') {
    const lines = [
      `Another funder's note changed the risk signals of a merchant you watch.`,
      '',
      `Merchant EIN: ${ein}`,
      `Merchant Name: ${d.merchant_name}`,
    ];
    if (d.new_categories.length > 0) lines.push(`New categories: ${d.new_categories.join(', ')}`);
    lines.push(`Funders reporting it: ${d.before.funders} before, ${d.after.funders} now`);
    for (const c of d.after.categories)
      lines.push(
        `${c.label}: ${c.last_90_days} in the last 90 days, ${c.last_12_months} in 12 months, ${c.ever} ever`,
      );
    if (d.after.cured_at) lines.push(`Default cured (Default Satisfied) on ${d.after.cured_at.slice(0, 10)}`);
    lines.push(
      `Merchant URL: ${d.merchant_url}`,
      '',
      'Counts only: the network never names the funders. You are not told of your own notes.',
    );
    return { subject: `Risk signals changed: ${d.merchant_name} (EIN ${ein})`, text: lines.join('\n') };
  }
  if (d.action === 'Being Shopped') {
    const lines = [
      `${d.other_funders_last_7_days} other funders looked up a merchant you watch in the last 7 days: it may be shopping for several advances at once.`,
      '',
      `Merchant EIN: ${ein}`,
      `Merchant Name: ${d.merchant_name}`,
      `Other funders, last 7 days: ${d.other_funders_last_7_days} (your alert threshold: ${d.threshold})`,
      `Other funders, last 30 days: ${d.other_funders_last_30_days}`,
      `Other funders, last 90 days: ${d.other_funders_last_90_days}`,
      `Merchant URL: ${d.merchant_url}`,
      '',
      'Counts only: the network never names the funders. Change the threshold or turn these alerts off in your Account settings.',
    ];
    return { subject: `Being shopped: ${d.merchant_name} (EIN ${ein})`, text: lines.join('\n') };
  }
  const lines = [
    `${d.action} on a merchant you watch.`,
    '',
    `Merchant EIN: ${ein}`,
    `Merchant Name: ${d.merchant_name}`,
    `Action: ${d.action}`,
  ];
  if (d.note_category) lines.push(`Note Category: ${d.note_category}`);
  if (d.note) lines.push(`Note: ${d.note}`);
  lines.push(`Action Performed By: ${d.action_performed_by}`, `Merchant URL: ${d.merchant_url}`);
  return { subject: `${d.action}: ${d.merchant_name} (EIN ${ein})`, text: lines.join('\n') };
}
