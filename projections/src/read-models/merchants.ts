import { lastBy, projector } from '../projector.ts';

/**
 * Indexes the words of names just written (`from`: rows of id, search_text) for keyword search, and
 * adds new words to the vocabulary that misspelt keywords are corrected against.
 */
const INDEX_WORDS = (from: string) => `words as (
    insert into read.merchant_words (word, name, merchant_id)
    select distinct w, n.search_text, n.id
    from ${from} n, unnest(tsvector_to_array(to_tsvector('simple', n.search_text))) as w
    returning word)
  insert into read.search_words (word) select distinct word from words on conflict do nothing`;

const UNINDEX = 'delete from read.merchant_words w where w.merchant_id = any($1::uuid[])';

export const merchantsProjector = projector({
  name: 'merchants',
  tables: ['read.merchants', 'read.merchant_words', 'read.search_words'],
  bulk: {
    order: ['MerchantAdded', 'MerchantUpdated', 'NoteAdded', 'MerchantArchived'],
    handlers: {
      MerchantAdded: async (tx, events) => {
        await tx.query(
          `with added as (
           insert into read.merchants (id, fein, legal_name, dba, street1, street2, city, state, business_phone,
             business_startdate, industry, account_id, user_id, created_at)
           select r."merchantId", r.fein, r."legalName", r.dba, r.street1, r.street2, r.city, r.state, r."businessPhone",
             r."businessStartdate"::date, r.industry, r."accountId", r."userId", r.at
           from jsonb_to_recordset($1::jsonb) as r("merchantId" uuid, fein text, "legalName" text, dba text, street1 text,
             street2 text, city text, state text, "businessPhone" text, "businessStartdate" text, industry text,
             "accountId" uuid, "userId" uuid, at timestamptz)
           returning id, search_text),
           ${INDEX_WORDS('added')}`,
          [JSON.stringify(events.map((e) => ({ ...e.data, at: e.recordedAt })))],
        );
      },
      MerchantUpdated: async (tx, events) => {
        const latest = lastBy(events, (e) => e.data.merchantId);
        await tx.query(UNINDEX, [latest.map((e) => e.data.merchantId)]);
        await tx.query(
          `with updated as (
           update read.merchants m set fein = r.fein, legal_name = r."legalName", dba = r.dba, street1 = r.street1,
             street2 = r.street2, city = r.city, state = r.state, business_phone = r."businessPhone",
             business_startdate = r."businessStartdate"::date, industry = r.industry, updated_at = r.at
           from jsonb_to_recordset($1::jsonb) as r("merchantId" uuid, fein text, "legalName" text, dba text, street1 text,
             street2 text, city text, state text, "businessPhone" text, "businessStartdate" text, industry text, at timestamptz)
           where m.id = r."merchantId"
           returning m.id, m.search_text, m.archived_at),
           live as (select id, search_text from updated where archived_at is null),
           ${INDEX_WORDS('live')}`,
          [JSON.stringify(latest.map((e) => ({ ...e.data, at: e.recordedAt })))],
        );
      },
      NoteAdded: async (tx, events) => {
        // Merchant Dispute notes are for platform admins only, so they never show as a list's latest category.
        const visible = events.filter((e) => e.data.category !== 'Merchant Dispute');
        if (visible.length === 0) return;
        await tx.query(
          `update read.merchants m set last_note_category = r.category, last_note_at = r.at
           from jsonb_to_recordset($1::jsonb) as r("merchantId" uuid, category text, at timestamptz)
           where m.id = r."merchantId"`,
          [
            JSON.stringify(
              lastBy(visible, (e) => e.data.merchantId).map((e) => ({
                merchantId: e.data.merchantId,
                category: e.data.category,
                at: e.recordedAt,
              })),
            ),
          ],
        );
      },
      MerchantArchived: async (tx, events) => {
        // An archived merchant leaves keyword search; its words stay in the vocabulary.
        await tx.query(UNINDEX, [events.map((e) => e.data.merchantId)]);
        await tx.query(
          `update read.merchants m set archived_at = r.at, archive_reason = r.reason
           from jsonb_to_recordset($1::jsonb) as r("merchantId" uuid, reason text, at timestamptz) where m.id = r."merchantId"`,
          [
            JSON.stringify(
              events.map((e) => ({ merchantId: e.data.merchantId, reason: e.data.reason, at: e.recordedAt })),
            ),
          ],
        );
      },
    },
  },
});
