import { projector } from '../projector.ts';

export const disputesProjector = projector({
  name: 'disputes',
  tables: ['read.disputes'],
  handlers: {
    DisputeSubmitted: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `insert into read.disputes (id, first_name, last_name, email, fein, legal_name, dba, city, state, reason, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          d.disputeId,
          d.firstName,
          d.lastName,
          d.email,
          d.fein,
          d.legalName,
          d.dba,
          d.city,
          d.state,
          d.reason,
          e.recordedAt,
        ],
      );
    },
  },
});
