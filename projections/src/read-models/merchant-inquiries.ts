import { inquiredMerchant } from '@mrn/contracts';
import { projector } from '../projector.ts';

// When each funder last looked each merchant up; `greatest` makes the upsert order-free, so any
// batching of the log gives the same rows.
const PROJECT_INQUIRIES = `insert into read.merchant_inquiries (merchant_id, account_id, last_searched_at)
  select r."merchantId", r."accountId", max(r.at)
  from json_to_recordset($1::json) as r("merchantId" uuid, "accountId" uuid, at timestamptz)
  group by 1, 2
  on conflict (merchant_id, account_id) do update
    set last_searched_at = greatest(read.merchant_inquiries.last_searched_at, excluded.last_searched_at)`;

/**
 * Inquiry velocity (issue 24): the searches that looked a merchant up, by funder
 * (contracts/src/domain/inquiries.ts says which count). Read through read.inquiry_velocity().
 */
export const merchantInquiriesProjector = projector({
  name: 'merchant_inquiries',
  log: 'searches',
  tables: ['read.merchant_inquiries'],
  bulk: {
    order: ['MerchantSearched'],
    handlers: {
      MerchantSearched: async (tx, events) => {
        const rows = events.flatMap((e) => {
          const merchantId = inquiredMerchant(e.data);
          return merchantId ? [{ merchantId, accountId: e.data.accountId, at: e.recordedAt }] : [];
        });
        if (rows.length === 0) return;
        await tx.query({
          name: 'mrn_project_inquiries',
          text: PROJECT_INQUIRIES,
          values: [JSON.stringify(rows)],
        });
      },
    },
  },
});
