import { projector } from '../projector.ts';

// Every statement also sets the row's `revision`: the user's stream revision it has applied through, which
// the session check compares with a token's (migration 0027).
export const usersProjector = projector({
  name: 'users',
  tables: ['read.users'],
  handlers: {
    UserRegistered: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `insert into read.users (id, account_id, email, first_name, last_name, is_admin, is_dm_admin, agreed_to_terms_at, created_at, revision)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
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
          e.revision,
        ],
      );
    },
    UserSignedIn: async (tx, e) => {
      await tx.query('update read.users set last_sign_in_at = $2, revision = $3 where id = $1', [
        e.data.userId,
        e.recordedAt,
        e.revision,
      ]);
    },
    UserUpdated: async (tx, e) => {
      await tx.query(
        'update read.users set first_name = $2, last_name = $3, email = $4, revision = $5 where id = $1',
        [e.data.userId, e.data.firstName, e.data.lastName, e.data.email, e.revision],
      );
    },
    UserArchived: async (tx, e) => {
      await tx.query('update read.users set archived_at = $2, revision = $3 where id = $1', [
        e.data.userId,
        e.recordedAt,
        e.revision,
      ]);
    },
    UserRestored: async (tx, e) => {
      await tx.query('update read.users set archived_at = null, revision = $2 where id = $1', [
        e.data.userId,
        e.revision,
      ]);
    },
    UserAdminChanged: async (tx, e) => {
      await tx.query('update read.users set is_admin = $2, revision = $3 where id = $1', [
        e.data.userId,
        e.data.isAdmin,
        e.revision,
      ]);
    },
    UserMfaRequiredChanged: async (tx, e) => {
      await tx.query('update read.users set mfa_required = $2, revision = $3 where id = $1', [
        e.data.userId,
        e.data.mfaRequired,
        e.revision,
      ]);
    },
    UserMfaEnabled: async (tx, e) => {
      await tx.query('update read.users set mfa_enabled = true, revision = $2 where id = $1', [
        e.data.userId,
        e.revision,
      ]);
    },
    UserMfaReset: async (tx, e) => {
      await tx.query(
        'update read.users set mfa_enabled = false, otp_ip = null, otp_device = null, remembered_until = null, revision = $2 where id = $1',
        [e.data.userId, e.revision],
      );
    },
    UserDeviceRemembered: async (tx, e) => {
      await tx.query(
        'update read.users set otp_ip = $2, otp_device = $3, remembered_until = $4, revision = $5 where id = $1',
        [e.data.userId, e.data.ip, e.data.device, e.data.expiresAt, e.revision],
      );
    },
    UserDeviceForgotten: async (tx, e) => {
      await tx.query(
        'update read.users set otp_ip = null, otp_device = null, remembered_until = null, revision = $2 where id = $1',
        [e.data.userId, e.revision],
      );
    },
    UserApiAccessGranted: async (tx, e) => {
      await tx.query(
        'update read.users set api_granted = true, api_token = $2, revision = $3 where id = $1',
        [e.data.userId, e.data.authenticationToken, e.revision],
      );
    },
    UserApiAccessRevoked: async (tx, e) => {
      await tx.query(
        'update read.users set api_granted = false, api_token = null, revision = $2 where id = $1',
        [e.data.userId, e.revision],
      );
    },
    UserAgreedToTerms: async (tx, e) => {
      await tx.query('update read.users set agreed_to_terms_at = $2, revision = $3 where id = $1', [
        e.data.userId,
        e.data.agreedAt,
        e.revision,
      ]);
    },
    UserSessionsRevoked: async (tx, e) => {
      await tx.query('update read.users set session_version = $2, revision = $3 where id = $1', [
        e.data.userId,
        e.data.sessionVersion,
        e.revision,
      ]);
    },
  },
});
