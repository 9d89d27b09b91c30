import { projector } from '../projector.ts';

export const usersProjector = projector({
  name: 'users',
  tables: ['read.users'],
  handlers: {
    UserRegistered: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `insert into read.users (id, account_id, email, first_name, last_name, is_admin, is_dm_admin, agreed_to_terms_at, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          d.userId,
          d.accountId,
          d.email,
          d.firstName,
          d.lastName,
          d.isAdmin,
          d.isDmAdmin,
          d.agreedToTermsAt,
          e.recordedAt,
        ],
      );
    },
    UserSignedIn: async (tx, e) => {
      await tx.query('update read.users set last_sign_in_at = $2 where id = $1', [
        e.data.userId,
        e.recordedAt,
      ]);
    },
    UserSessionsRevoked: async (tx, e) => {
      await tx.query('update read.users set session_version = $2 where id = $1', [
        e.data.userId,
        e.data.sessionVersion,
      ]);
    },
  },
});
