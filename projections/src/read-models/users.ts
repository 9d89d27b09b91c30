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
    UserUpdated: async (tx, e) => {
      await tx.query('update read.users set first_name = $2, last_name = $3, email = $4 where id = $1', [
        e.data.userId,
        e.data.firstName,
        e.data.lastName,
        e.data.email,
      ]);
    },
    UserArchived: async (tx, e) => {
      await tx.query('update read.users set archived_at = $2 where id = $1', [e.data.userId, e.recordedAt]);
    },
    UserRestored: async (tx, e) => {
      await tx.query('update read.users set archived_at = null where id = $1', [e.data.userId]);
    },
    UserAdminChanged: async (tx, e) => {
      await tx.query('update read.users set is_admin = $2 where id = $1', [e.data.userId, e.data.isAdmin]);
    },
    UserMfaRequiredChanged: async (tx, e) => {
      await tx.query('update read.users set mfa_required = $2 where id = $1', [
        e.data.userId,
        e.data.mfaRequired,
      ]);
    },
    UserMfaEnabled: async (tx, e) => {
      await tx.query('update read.users set mfa_enabled = true where id = $1', [e.data.userId]);
    },
    UserMfaReset: async (tx, e) => {
      await tx.query(
        'update read.users set mfa_enabled = false, otp_ip = null, otp_device = null, remembered_until = null where id = $1',
        [e.data.userId],
      );
    },
    UserDeviceRemembered: async (tx, e) => {
      await tx.query(
        'update read.users set otp_ip = $2, otp_device = $3, remembered_until = $4 where id = $1',
        [e.data.userId, e.data.ip, e.data.device, e.data.expiresAt],
      );
    },
    UserDeviceForgotten: async (tx, e) => {
      await tx.query(
        'update read.users set otp_ip = null, otp_device = null, remembered_until = null where id = $1',
        [e.data.userId],
      );
    },
    UserApiAccessGranted: async (tx, e) => {
      await tx.query('update read.users set api_granted = true, api_token = $2 where id = $1', [
        e.data.userId,
        e.data.authenticationToken,
      ]);
    },
    UserApiAccessRevoked: async (tx, e) => {
      await tx.query('update read.users set api_granted = false, api_token = null where id = $1', [
        e.data.userId,
      ]);
    },
    UserAgreedToTerms: async (tx, e) => {
      await tx.query('update read.users set agreed_to_terms_at = $2 where id = $1', [
        e.data.userId,
        e.data.agreedAt,
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
