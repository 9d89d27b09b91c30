import type {
  AccountView,
  ContributionView,
  exportContacts,
  getAccount,
  getAccountContribution,
  getApiCredentials,
  getUser,
  listAccounts,
  listAccountUsers,
  listDevMailbox,
  listMemberFunders,
  UserView,
  WebhookEventType,
} from '@mrn/contracts';
import { FUNDER_SORT, recordsNeeded } from '@mrn/contracts';
import {
  type Actor,
  devMailPage,
  forbidden,
  type Handler,
  notFound,
  pageOf,
  requestOrigin,
} from '@mrn/platform';
import type { QueryDeps } from '../context.ts';
import { toCsv } from '../csv.ts';
import { LOCKED_OUT_SQL } from '../search/search-handlers.ts';
import { orderBy, type SortOrders } from '../sorting.ts';
import { iso, likeEscape, pagination } from '../views.ts';

interface AccountRow {
  id: string;
  name: string;
  website: string | null;
  primary_contact_email: string;
  plan_level: AccountView['plan_level'];
  membership_status: AccountView['membership_status'];
  trial_started_at: Date | null;
  current_period_end: Date | null;
  payment_failed: boolean;
  next_payment_attempt: Date | null;
  billed: boolean;
  membership_ended_reason: AccountView['membership_ended_reason'];
  membership_ended_at: Date | null;
  api_granted_at: Date | null;
  api_revoked_at: Date | null;
  merchants_added: number;
  notes_added: number;
  last_merchant_added_at: Date | null;
  ninety_day: string | null;
  month: string | null;
  two_week: string | null;
  week: string | null;
  contribution_locked: boolean;
  contribution_warning_date: Date | null;
  contribution_warning_expire_date: Date | null;
  contribution_override: boolean;
  records_added: number;
  merchants_searched: number;
  can_access_api: boolean;
  mfa_required: boolean;
  merchant_subscription_enabled: boolean;
  merchant_subscription_notification_email: string | null;
  merchant_subscription_notification_webhook: string | null;
  watch_searched_merchants: boolean;
  watch_searched_months: number;
  shopped_alert_threshold: number | null;
  webhook_event_types: WebhookEventType[] | null;
  archived_at: Date | null;
  created_at: Date;
}

// An account with no contribution row yet has added and searched nothing: 100 (DESIGN §4).
const percent = (value: string | null): number => (value === null ? 100 : Number(value));

// The account with its contribution figures and, for the 90-day window ending now, what they are made of.
const ACCOUNT_COLUMNS = `a.*, c.ninety_day, c.month, c.two_week, c.week,
  w.added::int as records_added, w.searched::int as merchants_searched`;
const ACCOUNT_FROM = `read.accounts a left join read.account_contribution c on c.account_id = a.id
  cross join lateral read.contribution_in_window(a.id, now(), 90) w`;

// The funders list's sortable columns; ties by name, then id, so pages never overlap. A funder that
// never added a merchant sorts last by Last Added either way; one without figures counts as 100 %.
const FUNDER_ORDERS: SortOrders<keyof typeof FUNDER_SORT.columns> = {
  name: (d) => `lower(a.name) ${d}, a.id ${d}`,
  merchants_added: (d) => `a.merchants_added ${d}, lower(a.name), a.id`,
  last_added: (d) => `a.last_merchant_added_at ${d} nulls last, lower(a.name), a.id`,
  contribution: (d) => `coalesce(c.ninety_day, 100) ${d}, lower(a.name), a.id`,
};

/**
 * `payment_method_update_url` (accounts spec §3): the Billing tab where this viewer updates the card, at
 * the origin they asked from (PUBLIC_URL when set; platform/src/http/link-origin.ts). Platform admins
 * get the funder's page, the account's own admins their Account page, anyone else null. Without a usable
 * origin (no Host), the path alone.
 */
export function paymentMethodUpdateUrl(
  viewer: Pick<Actor, 'accountId' | 'isAdmin' | 'isDmAdmin'>,
  accountId: string,
  origin: string | null,
): string | null {
  const path = viewer.isDmAdmin
    ? `/funders/${accountId}?tab=billing`
    : viewer.isAdmin && viewer.accountId === accountId
      ? '/account?tab=billing'
      : null;
  return path === null ? null : `${origin ?? ''}${path}`;
}

const toAccountView = (r: AccountRow, updateUrl: string | null): AccountView => ({
  id: r.id,
  resource_id: r.id,
  name: r.name,
  website: r.website,
  primary_contact_email: r.primary_contact_email,
  plan_level: r.plan_level,
  membership_status: r.membership_status,
  trial_started_at: iso(r.trial_started_at),
  current_period_end: iso(r.current_period_end),
  payment_failed: r.payment_failed,
  next_payment_attempt: iso(r.next_payment_attempt),
  billed: r.billed,
  membership_ended_reason: r.membership_ended_reason,
  membership_ended_at: iso(r.membership_ended_at),
  merchants_added: r.merchants_added,
  notes_added: r.notes_added,
  last_merchant_added_at: iso(r.last_merchant_added_at),
  total_ninety_days_contribution_percentage: percent(r.ninety_day),
  total_month_contribution_percentage: percent(r.month),
  total_two_week_contribution_percentage: percent(r.two_week),
  total_week_contribution_percentage: percent(r.week),
  contribution_locked: r.contribution_locked,
  contribution_warning_date: iso(r.contribution_warning_date),
  contribution_warning_expire_date: iso(r.contribution_warning_expire_date),
  contribution_override: r.contribution_override,
  contribution_records_added: r.records_added,
  contribution_merchants_searched: r.merchants_searched,
  contribution_records_needed: recordsNeeded(r.records_added, r.merchants_searched),
  can_access_api: r.can_access_api,
  api_granted: iso(r.api_granted_at),
  api_revoked: iso(r.api_revoked_at),
  payment_method_update_url: updateUrl,
  mfa_required: r.mfa_required,
  merchant_subscription_enabled: r.merchant_subscription_enabled,
  merchant_subscription_notification_email: r.merchant_subscription_notification_email,
  merchant_subscription_notification_webhook: r.merchant_subscription_notification_webhook,
  watch_searched_merchants: r.watch_searched_merchants,
  watch_searched_months: r.watch_searched_months,
  shopped_alert_threshold: r.shopped_alert_threshold,
  webhook_event_types: r.webhook_event_types,
  archived_at: iso(r.archived_at),
  created_at: iso(r.created_at)!,
});

/** The contribution part of an account, all that its ordinary members may read of it. */
const toContributionView = (r: AccountRow & { search_locked: boolean }): ContributionView => ({
  account_id: r.id,
  account_name: r.name,
  total_ninety_days_contribution_percentage: percent(r.ninety_day),
  total_month_contribution_percentage: percent(r.month),
  total_two_week_contribution_percentage: percent(r.two_week),
  total_week_contribution_percentage: percent(r.week),
  contribution_locked: r.contribution_locked,
  contribution_warning_date: iso(r.contribution_warning_date),
  contribution_warning_expire_date: iso(r.contribution_warning_expire_date),
  contribution_override: r.contribution_override,
  contribution_records_added: r.records_added,
  contribution_merchants_searched: r.merchants_searched,
  contribution_records_needed: recordsNeeded(r.records_added, r.merchants_searched),
  search_locked: r.search_locked,
});

const USER_COLUMNS = `u.id, u.account_id, u.first_name, u.last_name, u.email, u.is_admin, u.is_dm_admin, u.mfa_required,
  u.mfa_enabled, u.otp_ip, u.otp_device, u.remembered_until, u.api_granted, u.archived_at,
  a.primary_contact_email, a.merchant_subscription_enabled, a.plan_level, a.mfa_required as account_mfa_required`;

interface UserRow {
  id: string;
  account_id: string;
  first_name: string;
  last_name: string;
  email: string;
  is_admin: boolean;
  is_dm_admin: boolean;
  mfa_required: boolean;
  mfa_enabled: boolean;
  otp_ip: string | null;
  otp_device: string | null;
  remembered_until: Date | null;
  api_granted: boolean;
  archived_at: Date | null;
  primary_contact_email: string | null;
  merchant_subscription_enabled: boolean | null;
  plan_level: UserView['plan_level'] | null;
  account_mfa_required: boolean | null;
}

const toUserView = (r: UserRow): UserView => {
  const remembered = r.remembered_until !== null && r.remembered_until > new Date();
  return {
    id: r.id,
    resource_id: r.id,
    account_id: r.account_id,
    account_resource_id: r.account_id,
    account_primary_email: r.primary_contact_email,
    account_merchant_subscription_enabled: r.merchant_subscription_enabled ?? false,
    first_name: r.first_name,
    last_name: r.last_name,
    email: r.email,
    is_admin: r.is_admin,
    is_dm_admin: r.is_dm_admin,
    plan_level: r.plan_level ?? 'BASIC',
    mfa_required: r.mfa_required || (r.account_mfa_required ?? false),
    account_mfa_required: r.account_mfa_required ?? false,
    mfa_enabled: r.mfa_enabled,
    otp_remember_device: remembered,
    otp_ip: remembered ? r.otp_ip : null,
    otp_device: remembered ? r.otp_device : null,
    api_granted: r.api_granted,
    deleted_at: iso(r.archived_at),
  };
};

const ACCOUNT_NOT_FOUND = 'Funder not found.';
const USER_NOT_FOUND = 'Member not found.';

/**
 * Own account for its admins; every account for platform admins. Another funder's account, or a user
 * of it, answers exactly as an id that does not exist: a 403 would confirm that it exists.
 */
function requireManager(actor: Actor, accountId: string, notFoundText: string): void {
  if (actor.isDmAdmin) return;
  if (actor.accountId !== accountId) throw notFound(notFoundText);
  if (!actor.isAdmin) throw forbidden();
}

export function accountQueryHandlers(deps: QueryDeps) {
  async function userRow(id: string): Promise<UserRow> {
    const { rows } = await deps.pool.query<UserRow>(
      `select ${USER_COLUMNS} from read.users u left join read.accounts a on a.id = u.account_id where u.id = $1`,
      [id],
    );
    if (!rows[0]) throw notFound(USER_NOT_FOUND);
    return rows[0];
  }

  const listAccountsHandler: Handler<typeof listAccounts> = async (req) => {
    const { page, per_page, search, membership_filter, plan_level_filter } = req.query;
    const conditions = ['not a.is_platform'];
    const params: unknown[] = [];
    if (search) {
      params.push(`%${likeEscape(search.toLowerCase())}%`);
      conditions.push(`lower(a.name) like $${params.length}`);
    }
    if (membership_filter === 'active')
      conditions.push(`a.archived_at is null and a.membership_status in ('active', 'trialing')`);
    if (membership_filter === 'canceled')
      conditions.push(`(a.archived_at is not null or a.membership_status not in ('active', 'trialing'))`);
    if (plan_level_filter) {
      params.push(plan_level_filter);
      conditions.push(`a.plan_level = $${params.length}`);
    }
    const where = conditions.join(' and ');
    const order = orderBy(FUNDER_SORT, req.query, FUNDER_ORDERS);
    const { rows, total } = await pageOf<AccountRow>(deps.pool, {
      select: ACCOUNT_COLUMNS,
      from: `from ${ACCOUNT_FROM}`,
      countFrom: 'from read.accounts a',
      where,
      params,
      orderBy: order,
      page,
      perPage: per_page,
    });
    const origin = requestOrigin(req.request, deps.config.PUBLIC_URL);
    return {
      data: rows.map((r) => toAccountView(r, paymentMethodUpdateUrl(req.actor, r.id, origin))),
      pagination: pagination(page, per_page, total),
    };
  };

  const getAccountHandler: Handler<typeof getAccount> = async (req) => {
    requireManager(req.actor, req.params.id, ACCOUNT_NOT_FOUND);
    const { rows } = await deps.pool.query<AccountRow>(
      `select ${ACCOUNT_COLUMNS} from ${ACCOUNT_FROM} where a.id = $1`,
      [req.params.id],
    );
    if (!rows[0]) throw notFound(ACCOUNT_NOT_FOUND);
    // Only the account's admins and platform admins get here (requireManager). The secret is the
    // dispatcher's: it makes one for every funder it sees opened (published to us read-only), so an admin
    // can set up verification before the first webhook is sent; absent for the moment it has not yet.
    const { rows: secrets } = await deps.pool.query<{ secret: string }>(
      'select secret from webhook_secrets where account_id = $1',
      [req.params.id],
    );
    const secret = secrets[0]?.secret;
    const url = paymentMethodUpdateUrl(
      req.actor,
      req.params.id,
      requestOrigin(req.request, deps.config.PUBLIC_URL),
    );
    return {
      data: {
        ...toAccountView(rows[0], url),
        ...(secret ? { merchant_subscription_webhook_secret: secret } : {}),
      },
    };
  };

  // Every member of the funder (accounts spec §6), read-only; another funder's answers as an unknown id.
  const getAccountContributionHandler: Handler<typeof getAccountContribution> = async (req) => {
    if (!req.actor.isDmAdmin && req.actor.accountId !== req.params.id) throw notFound(ACCOUNT_NOT_FOUND);
    const { rows } = await deps.pool.query<AccountRow & { search_locked: boolean }>(
      `select ${ACCOUNT_COLUMNS}, ${LOCKED_OUT_SQL} as search_locked from ${ACCOUNT_FROM} where a.id = $1`,
      [req.params.id],
    );
    if (!rows[0]) throw notFound(ACCOUNT_NOT_FOUND);
    return { data: toContributionView(rows[0]) };
  };

  const exportContactsHandler: Handler<typeof exportContacts> = async (req) => {
    const { rows } = await deps.pool.query<{
      funder: string;
      first_name: string;
      last_name: string;
      email: string;
      plan_level: string;
    }>(
      `select a.name as funder, u.first_name, u.last_name, u.email, a.plan_level
         from read.users u join read.accounts a on a.id = u.account_id
        where u.archived_at is null and a.archived_at is null and not a.is_platform
        order by lower(a.name), lower(u.last_name), lower(u.first_name)`,
    );
    const csv = toCsv(
      ['funder', 'first_name', 'last_name', 'email', 'membership_level'],
      rows.map((r) => [r.funder, r.first_name, r.last_name, r.email, r.plan_level]),
    );
    const product = deps.config.PRODUCT_NAME.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    req.reply.header('content-type', 'text/csv; charset=utf-8');
    req.reply.header('content-disposition', `attachment; filename="${product}-contacts-${stamp}.csv"`);
    return csv;
  };

  const listMemberFundersHandler: Handler<typeof listMemberFunders> = async (req) => {
    const { page, per_page } = req.query;
    const where = `archived_at is null and not is_platform and membership_status in ('active', 'trialing')`;
    const { rows, total } = await pageOf<{
      id: string;
      name: string;
      website: string | null;
      plan_level: 'BASIC' | 'PRO';
    }>(deps.pool, {
      select: 'id, name, website, plan_level',
      from: 'from read.accounts',
      where,
      orderBy: 'lower(name), id',
      page,
      perPage: per_page,
    });
    return {
      data: rows.map((r) => ({
        resource_id: r.id,
        name: r.name,
        website: r.website,
        plan_level: r.plan_level,
      })),
      pagination: pagination(page, per_page, total),
    };
  };

  const listAccountUsersHandler: Handler<typeof listAccountUsers> = async (req) => {
    requireManager(req.actor, req.params.id, ACCOUNT_NOT_FOUND);
    const { rows } = await deps.pool.query<UserRow>(
      `select ${USER_COLUMNS} from read.users u left join read.accounts a on a.id = u.account_id
        where u.account_id = $1 order by lower(u.last_name), lower(u.first_name), u.id`,
      [req.params.id],
    );
    const views = rows.map(toUserView);
    return {
      data: { members: views.filter((u) => !u.deleted_at), archived: views.filter((u) => !!u.deleted_at) },
    };
  };

  const getUserHandler: Handler<typeof getUser> = async (req) => {
    const row = await userRow(req.params.id);
    const self = req.actor.userId === row.id;
    if (!self) requireManager(req.actor, row.account_id, USER_NOT_FOUND);
    return { data: toUserView(row) };
  };

  const getApiCredentialsHandler: Handler<typeof getApiCredentials> = async (req) => {
    const row = await userRow(req.params.id);
    requireManager(req.actor, row.account_id, USER_NOT_FOUND);
    const { rows } = await deps.pool.query<{ api_token: string | null }>(
      'select api_token from read.users where id = $1',
      [row.id],
    );
    // The key was shown once when issued; only its existence is known now.
    return {
      data: {
        authentication_token: rows[0]?.api_token ?? null,
        key_hint: rows[0]?.api_token ? '••••••••' : null,
      },
    };
  };

  const listDevMailboxHandler: Handler<typeof listDevMailbox> = async (req) => {
    const { page, per_page, search } = req.query;
    const { mails, total } = await devMailPage(deps.pool, {
      limit: per_page,
      offset: (page - 1) * per_page,
      search,
    });
    return {
      data: mails.map((m) => ({
        id: m.id,
        to: m.to,
        subject: m.subject,
        text: m.text,
        received_at: iso(m.receivedAt)!,
      })),
      pagination: pagination(page, per_page, total),
    };
  };

  return {
    listAccounts: listAccountsHandler,
    getAccount: getAccountHandler,
    getAccountContribution: getAccountContributionHandler,
    exportContacts: exportContactsHandler,
    listMemberFunders: listMemberFundersHandler,
    listAccountUsers: listAccountUsersHandler,
    getUser: getUserHandler,
    getApiCredentials: getApiCredentialsHandler,
    listDevMailbox: listDevMailboxHandler,
  };
}
