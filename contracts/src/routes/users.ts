import { PLAN_LEVELS } from '../domain/plans.ts';
import { NEW_PASSWORD_MAX } from '../domain/session.ts';
import { dataEnvelope } from '../http/envelope.ts';
import { email, password, requiredText, uuid } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { z } from '../zod.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_REUSE_MESSAGE =
  'An error occurred while attempting to update password. Make sure you are not attempting to update the password to a previously used password.';
export const PASSWORD_HISTORY = 5;

export const UserView = z.object({
  id: z.string(),
  resource_id: z.string(),
  account_id: z.string(),
  account_resource_id: z.string(),
  account_primary_email: z.string().nullable(),
  account_merchant_subscription_enabled: z.boolean(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  is_admin: z.boolean(),
  is_dm_admin: z.boolean(),
  plan_level: z.enum(PLAN_LEVELS),
  mfa_required: z.boolean(),
  account_mfa_required: z.boolean(),
  mfa_enabled: z.boolean(),
  otp_remember_device: z.boolean(),
  otp_ip: z.string().nullable(),
  otp_device: z.string().nullable(),
  api_granted: z.boolean(),
  deleted_at: z.string().nullable(),
});
export type UserView = z.infer<typeof UserView>;

export const UserFields = z.object(
  { first_name: requiredText(64), last_name: requiredText(64), email: email(64) },
  { error: 'is required' },
);

/** A new password: required, at most 64, at least 8 (the specs give the maximum; 8 is our floor). */
export const newPassword = () =>
  password(NEW_PASSWORD_MAX).refine(
    (p) => p.length >= PASSWORD_MIN,
    `must be at least ${PASSWORD_MIN} characters`,
  );

const matching = <T extends { new_password: string; confirm_password: string }>(
  v: T,
  ctx: z.RefinementCtx,
) => {
  if (v.new_password !== v.confirm_password) {
    ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: 'must match the new password' });
  }
};

const idParam = z.object({ id: uuid() });
const done = dataEnvelope(z.object({ resource_id: z.string() }));

export const listAccountUsers = route({
  method: 'GET',
  path: '/api/accounts/:id/users',
  service: 'query',
  readModels: ['users', 'accounts'],
  access: 'account_admin',
  params: idParam,
  response: dataEnvelope(z.object({ members: z.array(UserView), archived: z.array(UserView) })),
  action: 'retrieve members',
});

export const createUser = route({
  method: 'POST',
  path: '/api/accounts/:id/users',
  service: 'command',
  access: 'account_admin',
  params: idParam,
  body: z.object({ user: UserFields }),
  response: done,
  action: 'add member',
});

export const getUser = route({
  method: 'GET',
  path: '/api/users/:id',
  service: 'query',
  readModels: ['users', 'accounts'],
  access: 'member',
  params: idParam,
  response: dataEnvelope(UserView),
  action: 'retrieve member',
});

export const updateUser = route({
  method: 'PUT',
  path: '/api/users/:id',
  service: 'command',
  access: 'member',
  params: idParam,
  body: z.object({ user: UserFields }),
  response: done,
  action: 'update member',
});

const userAction = (suffix: string, action: string, access: 'account_admin' | 'member' = 'account_admin') =>
  route({
    method: 'PUT',
    path: `/api/users/:id/${suffix}`,
    service: 'command',
    access,
    params: idParam,
    response: done,
    action,
  });

export const archiveUser = userAction('archive', 'archive member');
export const restoreUser = userAction('restore', 'restore member');
export const toggleUserAdmin = userAction('toggle_admin', 'update admin status');
export const toggleUserMfaRequired = userAction('mfa_required_toggle', 'update mfa required');
export const revokeUserApiAccess = userAction('revoke_api_access', 'revoke API access member');
export const forgetDevice = userAction('forget_device', 'forget device', 'member');
export const resetMfa = userAction('reset_mfa', 'reset MFA', 'member');
export const agreeToTerms = userAction('agree_to_terms', 'agree to terms', 'member');

export const ApiCredentials = z.object({ authentication_token: z.string(), authentication_key: z.string() });

/** Grants API access and issues credentials: the key is shown in full only in this answer. */
export const grantUserApiAccess = route({
  method: 'PUT',
  path: '/api/users/:id/grant_api_access',
  service: 'command',
  access: 'account_admin',
  params: idParam,
  response: dataEnvelope(ApiCredentials),
  action: 'grant API access member',
});

export const regenerateApiKey = route({
  method: 'PUT',
  path: '/api/users/:id/regenerate_api_key',
  service: 'command',
  access: 'account_admin',
  params: idParam,
  response: dataEnvelope(ApiCredentials),
  action: 'grant API access member',
});

export const getApiCredentials = route({
  method: 'GET',
  path: '/api/users/:id/api_credentials',
  service: 'query',
  readModels: ['users'],
  access: 'account_admin',
  params: idParam,
  response: dataEnvelope(
    z.object({ authentication_token: z.string().nullable(), key_hint: z.string().nullable() }),
  ),
  action: 'retrieve member',
});

export const changePassword = route({
  method: 'PUT',
  path: '/api/users/:id/change_password',
  service: 'command',
  access: 'member',
  params: idParam,
  body: z
    .object({
      user_id: z.string().optional(),
      old_password: password(64),
      new_password: newPassword(),
      confirm_password: password(64),
    })
    .superRefine(matching),
  response: dataEnvelope(z.object({ resource_id: z.string(), jwt: z.string().optional() })),
  action: 'update password',
});

/** The admin variant: no old password (accounts spec §7, "the path carries an admin marker"). */
export const adminChangePassword = route({
  method: 'PUT',
  path: '/api/users/:id/change_password/admin',
  service: 'command',
  access: 'account_admin',
  params: idParam,
  body: z
    .object({ user_id: z.string().optional(), new_password: newPassword(), confirm_password: password(64) })
    .superRefine(matching),
  response: done,
  action: 'update password',
});

export const forgotPassword = route({
  method: 'POST',
  path: '/api/auth/forgot_password',
  service: 'command',
  access: 'anonymous',
  body: z.object({ email: email(64) }),
  response: dataEnvelope(z.object({ ok: z.literal(true) })),
  action: 'process request',
});

/**
 * The query parameter an invitation's link carries beside its reset_token (`invitation=1`): the same
 * form sets a new member's first password, titled "Set your password" rather than "Reset password".
 */
export const INVITATION_LINK_PARAM = 'invitation';

export const passwordReset = route({
  method: 'POST',
  path: '/api/auth/password_reset',
  service: 'command',
  access: 'anonymous',
  body: z
    .object({
      email: email(64),
      reset_token: requiredText(200),
      new_password: newPassword(),
      confirm_password: password(64),
    })
    .superRefine(matching),
  response: dataEnvelope(z.object({ ok: z.literal(true) })),
  action: 'update password',
});
