import { MEMBERSHIP_ENDED_REASONS } from '../domain/billing-state.ts';
import { MEMBERSHIP_STATUSES, PLAN_LEVELS } from '../domain/plans.ts';
import { WATCH_SEARCHED_MONTHS } from '../domain/search-watch.ts';
import { SHOPPED_THRESHOLD, WEBHOOK_EVENT_TYPES } from '../domain/shopped-alerts.ts';
import { dataEnvelope, Pagination } from '../http/envelope.ts';
import { email, optionalText, requiredText, uuid } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { FUNDER_SORT, sortQuery } from '../http/sorting.ts';
import { z } from '../zod.ts';

export const AccountView = z.object({
  id: z.string(),
  resource_id: z.string(),
  name: z.string(),
  website: z.string().nullable(),
  primary_contact_email: z.string(),
  plan_level: z.enum(PLAN_LEVELS),
  membership_status: z.enum(MEMBERSHIP_STATUSES),
  trial_started_at: z.string().nullable(),
  /** The paid membership's current period end (its next renewal), from Stripe's events. */
  current_period_end: z.string().nullable(),
  /** A renewal failed and Stripe is retrying it: the account's admins see a bar and get an e-mail. */
  payment_failed: z.boolean(),
  next_payment_attempt: z.string().nullable(),
  /**
   * The membership is paid through the card payment provider: started with Start Membership (a
   * subscription) and not ended since. False for trials, for a membership granted outside billing (the
   * platform's own account) and for one that ended. Only a billed membership counts as revenue.
   */
  billed: z.boolean(),
  /**
   * Why the last membership or trial ended (null while none has): requested (Cancel Membership),
   * trial_canceled (Cancel Trial), unpaid (the provider stopped retrying a failed renewal and keeps the
   * subscription unpaid: paying its open invoice restores the membership), provider_payment_failed (the
   * provider ended the subscription after the renewal payment failed), provider (the provider ended it
   * otherwise). `billingStateOf` (contracts/domain/billing-state) reads these fields as one state.
   */
  membership_ended_reason: z.enum(MEMBERSHIP_ENDED_REASONS).nullable(),
  /** When it ended, on the provider's clock when the provider ended it. */
  membership_ended_at: z.string().nullable(),
  merchants_added: z.number().int(),
  notes_added: z.number().int(),
  last_merchant_added_at: z.string().nullable(),
  total_ninety_days_contribution_percentage: z.number(),
  total_month_contribution_percentage: z.number(),
  total_two_week_contribution_percentage: z.number(),
  total_week_contribution_percentage: z.number(),
  contribution_locked: z.boolean(),
  contribution_warning_date: z.string().nullable(),
  contribution_warning_expire_date: z.string().nullable(),
  contribution_override: z.boolean(),
  /** What the 90-day figure is made of, now: merchants and notes added, distinct merchants searched. */
  contribution_records_added: z.number().int(),
  contribution_merchants_searched: z.number().int(),
  /** More merchants or notes that would bring the 90-day figure to the minimum (0 when it is there). */
  contribution_records_needed: z.number().int(),
  can_access_api: z.boolean(),
  /**
   * When a platform administrator last granted (api_granted) and last revoked (api_revoked) the funder's
   * API access (accounts spec §3, §4: the grant toggles with can_access_api); null when never.
   */
  api_granted: z.string().nullable(),
  api_revoked: z.string().nullable(),
  /**
   * Where an admin updates the card the membership is charged to: the Billing tab of the funder's page
   * in the product (`/account?tab=billing` for the account's admins, `/funders/{id}?tab=billing` for
   * platform admins), whose Update Payment Method opens the provider's portal. Built from PUBLIC_URL, or
   * the origin the request was made to. Only for the account's admins and platform admins; null for
   * anyone else.
   */
  payment_method_update_url: z.string().nullable(),
  mfa_required: z.boolean(),
  merchant_subscription_enabled: z.boolean(),
  merchant_subscription_notification_email: z.string().nullable(),
  merchant_subscription_notification_webhook: z.string().nullable(),
  /**
   * The `whsec_…` secret that signs the account's webhooks (Standard Webhooks); only for the account's
   * admins and platform admins, absent for everyone else.
   */
  merchant_subscription_webhook_secret: z.string().optional(),
  /** Watch merchants we search: the account's searches subscribe it for `watch_searched_months`. */
  watch_searched_merchants: z.boolean(),
  watch_searched_months: z.number().int(),
  /** Being-shopped alerts: distinct other funders in 7 days that trigger one; null when off. */
  shopped_alert_threshold: z.number().int().nullable(),
  /** The event types the webhook endpoint receives; null: every type. */
  webhook_event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)).nullable(),
  archived_at: z.string().nullable(),
  created_at: z.string(),
});
export type AccountView = z.infer<typeof AccountView>;

const website = () =>
  requiredText(200).pipe(
    z.string().regex(/^(https?:\/\/)?[^\s.]+\.[^\s]{2,}$/i, 'is not a valid website address'),
  );
const webhookUrl = () =>
  optionalText(500).pipe(
    z
      .string()
      .regex(/^https?:\/\/\S+$/i, 'must be an http(s) address')
      .nullable(),
  );

const shoppedThresholdMessage = `must be between ${SHOPPED_THRESHOLD.min} and ${SHOPPED_THRESHOLD.max} funders`;
const watchMonthsMessage = `must be between ${WATCH_SEARCHED_MONTHS.min} and ${WATCH_SEARCHED_MONTHS.max} months`;

export const AccountFields = z.object(
  {
    name: requiredText(120),
    website: website(),
    primary_contact_email: email(64),
    merchant_subscription_enabled: z.boolean({ error: 'must be true or false' }).optional(),
    merchant_subscription_notification_email: optionalText(64)
      .pipe(
        z
          .string()
          .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'is not a valid email address')
          .nullable(),
      )
      .optional(),
    merchant_subscription_notification_webhook: webhookUrl().optional(),
    // Absent: left as it is (a client that predates the setting does not switch it off).
    watch_searched_merchants: z.boolean({ error: 'must be true or false' }).optional(),
    watch_searched_months: z
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(WATCH_SEARCHED_MONTHS.min, watchMonthsMessage)
      .max(WATCH_SEARCHED_MONTHS.max, watchMonthsMessage)
      .optional(),
    // Absent: left as they are. Null threshold: alerts off; null types: every type.
    shopped_alert_threshold: z
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(SHOPPED_THRESHOLD.min, shoppedThresholdMessage)
      .max(SHOPPED_THRESHOLD.max, shoppedThresholdMessage)
      .nullable()
      .optional(),
    webhook_event_types: z
      .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }), {
        error: 'must be a list of event types',
      })
      .min(1, 'must name at least one event type (remove the webhook address to receive none)')
      .nullable()
      .optional(),
  },
  { error: 'is required' },
);
export type AccountFields = z.infer<typeof AccountFields>;

const idParam = z.object({ id: uuid() });

export const listAccounts = route({
  method: 'GET',
  path: '/api/accounts',
  service: 'query',
  readModels: ['accounts', 'contribution', 'contribution_searches'],
  access: 'platform_admin',
  query: z.object({
    page: z.coerce.number({ error: 'must be a whole number' }).int().min(1, 'must be 1 or more').default(1),
    per_page: z.coerce
      .number({ error: 'must be a whole number' })
      .int()
      .refine((n) => [5, 10, 25].includes(n), 'must be one of 5, 10, 25')
      .default(25),
    search: z.string().trim().max(120, 'must be at most 120 characters').optional(),
    membership_filter: z
      .enum(['active', 'canceled', ''], { error: 'must be active, canceled or empty' })
      .optional(),
    plan_level_filter: z.enum([...PLAN_LEVELS, ''], { error: 'must be BASIC, PRO or empty' }).optional(),
    ...sortQuery(FUNDER_SORT),
  }),
  response: z.object({ data: z.array(AccountView), pagination: Pagination }),
  action: 'retrieve funders',
});

export const createAccount = route({
  method: 'POST',
  path: '/api/accounts',
  service: 'command',
  access: 'platform_admin',
  body: z.object({ account: AccountFields }),
  response: dataEnvelope(z.object({ resource_id: z.string() })),
  action: 'create funder',
});

export const getAccount = route({
  method: 'GET',
  path: '/api/accounts/:id',
  service: 'query',
  readModels: ['accounts', 'contribution', 'contribution_searches'],
  access: 'account_admin',
  params: idParam,
  response: dataEnvelope(AccountView),
  action: 'retrieve funder',
});

export const updateAccount = route({
  method: 'PUT',
  path: '/api/accounts/:id',
  service: 'command',
  access: 'account_admin',
  params: idParam,
  body: z.object({ account: AccountFields }),
  response: dataEnvelope(z.object({ resource_id: z.string() })),
  action: 'update',
});

const accountAction = (suffix: string, action: string) =>
  route({
    method: 'PUT',
    path: `/api/accounts/:id/${suffix}`,
    service: 'command',
    access: 'platform_admin',
    params: idParam,
    response: dataEnvelope(z.object({ resource_id: z.string() })),
    action,
  });

export const archiveAccount = accountAction('archive', 'archive funder');
export const grantAccountApiAccess = accountAction('grant_api_access', 'grant API access');
export const revokeAccountApiAccess = accountAction('revoke_api_access', 'revoke API access');
export const startTrial = accountAction('start_trial', 'start trial');
export const cancelTrial = accountAction('cancel_trial', 'cancel trial');
export const toggleAccountMfaRequired = accountAction('mfa_required_toggle', 'update mfa required');
export const toggleContributionOverride = accountAction(
  'contribution_override_toggle',
  'update contribution override',
);

/** Recalculate Contribution Percentage: the account's own admins and platform admins. */
export const recalculateContribution = route({
  method: 'PUT',
  path: '/api/accounts/:id/contribution_recalculate',
  service: 'command',
  access: 'account_admin',
  params: idParam,
  response: dataEnvelope(z.object({ resource_id: z.string() })),
  action: 'recalculate contribution',
});

/**
 * A funder's contribution as every one of its members may see it (accounts spec §6: an ordinary member has
 * the contribution view): the four figures, what the 90-day one is made of, the warning and lock, and
 * whether search is locked out now. Nothing else of the account (no contacts, settings or billing).
 */
export const ContributionView = AccountView.pick({
  total_ninety_days_contribution_percentage: true,
  total_month_contribution_percentage: true,
  total_two_week_contribution_percentage: true,
  total_week_contribution_percentage: true,
  contribution_locked: true,
  contribution_warning_date: true,
  contribution_warning_expire_date: true,
  contribution_override: true,
  contribution_records_added: true,
  contribution_merchants_searched: true,
  contribution_records_needed: true,
}).extend({
  account_id: z.string(),
  account_name: z.string(),
  /**
   * Search is refused now: below the minimum, locked or past the warning's expiry, no override (the rule
   * the search itself applies).
   */
  search_locked: z.boolean(),
});
export type ContributionView = z.infer<typeof ContributionView>;

/** Every member of the funder (read-only), its admins and platform admins; another funder's members get 404. */
export const getAccountContribution = route({
  method: 'GET',
  path: '/api/accounts/:id/contribution',
  service: 'query',
  readModels: ['accounts', 'contribution', 'contribution_searches'],
  access: 'member',
  params: idParam,
  response: dataEnvelope(ContributionView),
  action: 'retrieve contribution',
});

export const exportContacts = route({
  method: 'GET',
  path: '/api/export_contacts',
  service: 'query',
  readModels: ['users', 'accounts'],
  access: 'platform_admin',
  response: z.string(),
  action: 'export contacts',
});

export const MemberFunder = z.object({
  resource_id: z.string(),
  name: z.string(),
  website: z.string().nullable(),
  plan_level: z.enum(PLAN_LEVELS),
});

export const listMemberFunders = route({
  method: 'GET',
  path: '/api/members',
  service: 'query',
  readModels: ['accounts'],
  access: 'member',
  query: z.object({
    page: z.coerce.number({ error: 'must be a whole number' }).int().min(1).default(1),
    per_page: z.coerce
      .number({ error: 'must be a whole number' })
      .int()
      .min(1)
      .max(100, 'must be at most 100')
      .default(25),
  }),
  response: z.object({ data: z.array(MemberFunder), pagination: Pagination }),
  action: 'retrieve members',
});
