import { PLAN_LEVELS } from '../domain/plans.ts';
import { EMAIL_MAX, LOGIN_PASSWORD_MAX } from '../domain/session.ts';
import { dataEnvelope } from '../http/envelope.ts';
import { base32Secret, email, optionalText, password } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { z } from '../zod.ts';

/** The session user of core spec §3. */
export const SessionUser = z.object({
  resource_id: z.string(),
  account_resource_id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  account_name: z.string(),
  is_admin: z.boolean(),
  is_dm_admin: z.boolean(),
  mfa_required: z.boolean(),
  mfa_enabled: z.boolean(),
  mfa_verified: z.boolean(),
  active_membership: z.boolean(),
  agreed_to_terms: z.string().nullable(),
  plan_level: z.enum(PLAN_LEVELS),
  account_merchant_subscription_enabled: z.boolean(),
  account_merchant_subscription_notification_email: z.string().nullable(),
  account_merchant_subscription_notification_webhook_url: z.string().nullable(),
  account_total_ninety_days_contribution_percentage: z.number(),
});
export type SessionUser = z.infer<typeof SessionUser>;

export const LoginBody = z.object({
  auth: z.object(
    {
      email: email(EMAIL_MAX),
      password: password(LOGIN_PASSWORD_MAX),
      // Sent by the old client from a third-party look-up; the server uses what it sees (DESIGN §4).
      ip: optionalText(64).optional(),
      ua: optionalText(512).optional(),
    },
    { error: 'is required' },
  ),
});

export const login = route({
  method: 'POST',
  path: '/api/auth/login',
  service: 'command',
  access: 'anonymous',
  body: LoginBody,
  response: dataEnvelope(z.object({ jwt: z.string(), user: SessionUser, bypass_mfa: z.boolean() })),
  action: 'sign in',
});

export const autoLogin = route({
  method: 'GET',
  path: '/api/auth/auto_login',
  service: 'command',
  access: 'session',
  response: dataEnvelope(z.object({ jwt: z.string(), user: SessionUser })),
  action: 'sign in',
});

export const logout = route({
  method: 'POST',
  path: '/api/auth/logout',
  service: 'command',
  access: 'session',
  response: dataEnvelope(z.object({ ok: z.literal(true) })),
  action: 'sign out',
});

const OtpCode = z
  .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be text') })
  .trim()
  .regex(/^\d{6}$/, 'Code must be 6 digits');

/** What both MFA steps take besides the code: keep this device for 30 days, and what the client says of itself. */
const mfaStepFields = {
  code: OtpCode,
  remember_device: z.boolean({ error: 'must be true or false' }).default(false),
  ip: z.string().optional(),
  ua: z.string().optional(),
};

/** A passed MFA step: a full session token, and the remembered-device token when asked for. */
const MfaPassed = dataEnvelope(
  z.object({ jwt: z.string(), user: SessionUser, remember_token: z.string().nullable() }),
);

export const otpNew = route({
  method: 'GET',
  path: '/api/auth/otp/new',
  service: 'command',
  access: 'session',
  response: dataEnvelope(z.object({ otp_secret: z.string(), otp_url: z.string() })),
  action: 'get URL',
});

export const otpRegister = route({
  method: 'POST',
  path: '/api/auth/otp',
  service: 'command',
  access: 'session',
  body: z.object({
    otp: z.object(
      {
        otp_secret: base32Secret(),
        ...mfaStepFields,
      },
      { error: 'is required' },
    ),
  }),
  response: MfaPassed,
  action: 'register MFA',
});

export const otpVerify = route({
  method: 'POST',
  path: '/api/auth/otp/verify',
  service: 'command',
  access: 'session',
  body: z.object({
    otp: z.object(mfaStepFields, { error: 'is required' }),
  }),
  response: MfaPassed,
  action: 'verify MFA',
});

export const dashboardUpdates = route({
  method: 'POST',
  path: '/api/auth/dashboard_updates',
  service: 'command',
  access: 'session',
  body: z.object({ resource_id: z.string().optional() }).optional(),
  response: dataEnvelope(z.object({ user: SessionUser })),
  action: 'retrieve updates',
});

/** Header with which the browser presents its remember-device token at sign-in. */
export const REMEMBER_DEVICE_HEADER = 'x-remember-device';
