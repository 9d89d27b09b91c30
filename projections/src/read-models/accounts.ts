import { projector } from '../projector.ts';

export const accountsProjector = projector({
  name: 'accounts',
  tables: ['read.accounts'],
  handlers: {
    AccountOpened: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `insert into read.accounts (id, name, website, primary_contact_email, plan_level, membership_status, is_platform, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          d.accountId,
          d.name,
          d.website,
          d.primaryContactEmail,
          d.planLevel,
          d.membershipStatus,
          d.isPlatform,
          e.recordedAt,
        ],
      );
    },
  },
});
