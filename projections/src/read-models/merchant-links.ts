import { lastBy, projector } from '../projector.ts';
import { linkKeys } from './merchant-link-keys.ts';

/** Link keys of merchants as just reported ($1: rows of merchantId, kind, key). */
const INSERT_KEYS = `insert into read.merchant_link_keys (kind, key, merchant_id)
  select r.kind, r.key, r."merchantId" from json_to_recordset($1::json) as r("merchantId" uuid, kind text, key text)
  on conflict do nothing`;

const keyRows = (
  events: readonly {
    data: {
      merchantId: string;
      businessPhone: string | null;
      street1: string | null;
      city: string;
      state: string;
    };
  }[],
) =>
  JSON.stringify(
    events.flatMap((e) => linkKeys(e.data).map((k) => ({ merchantId: e.data.merchantId, ...k }))),
  );

/**
 * Linked merchants (issue 24): each live merchant's normalised business phone and street address, so
 * that other EINs sharing one can be listed as possibly the same business. The keys are computed here,
 * from the events, by merchant-link-keys.ts: a rebuild gives the same rows.
 */
export const merchantLinksProjector = projector({
  name: 'merchant_links',
  tables: ['read.merchant_link_keys'],
  bulk: {
    order: ['MerchantAdded', 'MerchantUpdated', 'MerchantArchived'],
    handlers: {
      MerchantAdded: async (tx, events) => {
        await tx.query(INSERT_KEYS, [keyRows(events)]);
      },
      MerchantUpdated: async (tx, events) => {
        const latest = lastBy(events, (e) => e.data.merchantId);
        await tx.query('delete from read.merchant_link_keys where merchant_id = any($1::uuid[])', [
          latest.map((e) => e.data.merchantId),
        ]);
        await tx.query(INSERT_KEYS, [keyRows(latest)]);
      },
      // An archived merchant drops out of every list of linked merchants.
      MerchantArchived: async (tx, events) => {
        await tx.query('delete from read.merchant_link_keys where merchant_id = any($1::uuid[])', [
          events.map((e) => e.data.merchantId),
        ]);
      },
    },
  },
});
