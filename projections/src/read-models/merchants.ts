import { projector } from '../projector.ts';

export const merchantsProjector = projector({
  name: 'merchants',
  tables: ['read.merchants'],
  handlers: {
    MerchantAdded: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `insert into read.merchants (id, fein, legal_name, dba, street1, street2, city, state, business_phone,
           business_startdate, industry, account_id, user_id, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          d.merchantId,
          d.fein,
          d.legalName,
          d.dba,
          d.street1,
          d.street2,
          d.city,
          d.state,
          d.businessPhone,
          d.businessStartdate,
          d.industry,
          d.accountId,
          d.userId,
          e.recordedAt,
        ],
      );
    },
    MerchantUpdated: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `update read.merchants set fein = $2, legal_name = $3, dba = $4, street1 = $5, street2 = $6, city = $7, state = $8,
           business_phone = $9, business_startdate = $10, industry = $11, updated_at = $12 where id = $1`,
        [
          d.merchantId,
          d.fein,
          d.legalName,
          d.dba,
          d.street1,
          d.street2,
          d.city,
          d.state,
          d.businessPhone,
          d.businessStartdate,
          d.industry,
          e.recordedAt,
        ],
      );
    },
    MerchantArchived: async (tx, e) => {
      await tx.query('update read.merchants set archived_at = $2, archive_reason = $3 where id = $1', [
        e.data.merchantId,
        e.recordedAt,
        e.data.reason,
      ]);
    },
    NoteAdded: async (tx, e) => {
      // Merchant Dispute notes are for platform admins only, so they never show as a list's latest category.
      if (e.data.category === 'Merchant Dispute') return;
      await tx.query('update read.merchants set last_note_category = $2, last_note_at = $3 where id = $1', [
        e.data.merchantId,
        e.data.category,
        e.recordedAt,
      ]);
    },
  },
});
