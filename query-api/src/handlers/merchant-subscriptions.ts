import {
  buildPath,
  type listMerchantSubscriptions,
  type listSubscriptionImports,
  type listWebhookDeliveries,
  type MerchantSubscriptionView,
  routes,
  SUBSCRIPTION_TEXTS,
  type SubscriptionImportView,
} from '@mrn/contracts';
import {
  type Actor,
  forbidden,
  type Handler,
  merchantSubscriptionId,
  notFound,
  type Pool,
} from '@mrn/platform';
import { deliveryLog } from '@mrn/webhook-dispatcher/delivery-log';
import type { QueryDeps } from '../context.ts';
import { iso, pagination } from '../views.ts';

/**
 * The account's own admins and platform admins; another funder's admin sees it as missing; only PRO
 * accounts with subscriptions enabled have them (accounts spec §6).
 */
async function assertSubscriptionsOf(pool: Pool, accountId: string, actor: Actor): Promise<void> {
  if (!actor.isDmAdmin && actor.accountId !== accountId) throw notFound('Funder not found.');
  if (!actor.isDmAdmin && !actor.isAdmin) throw forbidden();
  const { rows } = await pool.query<{ plan_level: string; enabled: boolean; archived_at: Date | null }>(
    'select plan_level, merchant_subscription_enabled as enabled, archived_at from read.accounts where id = $1',
    [accountId],
  );
  const account = rows[0];
  if (!account) throw notFound('Funder not found.');
  if (account.archived_at || account.plan_level !== 'PRO' || !account.enabled)
    throw forbidden(SUBSCRIPTION_TEXTS.notEnabled);
}

interface SubscriptionRow {
  fein: string;
  created_at: Date;
  watch_until: Date | null;
  merchant_id: string | null;
  legal_name: string | null;
  dba: string | null;
  city: string | null;
  state: string | null;
}

interface ImportRow {
  id: string;
  created_at: Date;
  file_name: string;
  file_size: string;
  status: SubscriptionImportView['status'];
  imported: number;
  skipped: number;
  errors: number;
}

export function merchantSubscriptionQueryHandlers(deps: QueryDeps) {
  const listHandler: Handler<typeof listMerchantSubscriptions> = async (req) => {
    const accountId = req.params.id;
    await assertSubscriptionsOf(deps.pool, accountId, req.actor);
    const { page, per_page, search } = req.query;
    const prefix = `${search ?? ''}%`;
    const [rows, count] = await Promise.all([
      deps.pool.query<SubscriptionRow>(
        `select s.fein, s.created_at, s.watch_until, m.id as merchant_id, m.legal_name, m.dba, m.city, m.state
           from read.merchant_subscriptions s
           left join read.merchants m on m.fein = s.fein and m.archived_at is null
          where s.account_id = $1 and s.fein like $2
          order by s.created_at desc, s.fein
          limit $3 offset $4`,
        [accountId, prefix, per_page, (page - 1) * per_page],
      ),
      deps.pool.query<{ n: number }>(
        'select count(*)::int as n from read.merchant_subscriptions where account_id = $1 and fein like $2',
        [accountId, prefix],
      ),
    ]);
    const data: MerchantSubscriptionView[] = rows.rows.map((r) => {
      const id = merchantSubscriptionId(accountId, r.fein);
      return {
        id,
        resource_id: id,
        fein: r.fein,
        created_at: iso(r.created_at)!,
        watch_until: r.watch_until?.toISOString() ?? null,
        merchant:
          r.merchant_id === null
            ? null
            : {
                resource_id: r.merchant_id,
                legal_name: r.legal_name!,
                dba: r.dba,
                city: r.city!,
                state: r.state!,
              },
      };
    });
    return { data, pagination: pagination(page, per_page, count.rows[0]!.n) };
  };

  const listImportsHandler: Handler<typeof listSubscriptionImports> = async (req) => {
    const accountId = req.params.id;
    await assertSubscriptionsOf(deps.pool, accountId, req.actor);
    const { rows } = await deps.pool.query<ImportRow>(
      `select id, created_at, file_name, file_size, status, imported, skipped, errors
         from read.merchant_subscription_imports where account_id = $1
        order by created_at desc, id limit 200`,
      [accountId],
    );
    return {
      data: rows.map((r) => ({
        id: r.id,
        created_at: iso(r.created_at)!,
        file_name: r.file_name,
        file_size: Number(r.file_size),
        status: r.status,
        processed: r.status === 'done' || r.status === 'failed',
        imported: r.imported,
        skipped: r.skipped,
        errors: r.errors,
        results_file_url:
          r.status === 'done'
            ? buildPath(routes.downloadSubscriptionImportResults.path, { id: accountId, import_id: r.id })
            : null,
      })),
    };
  };

  // The dispatcher's delivery log is the read model of this view: the dispatcher alone writes it and
  // owns its shape (webhook-dispatcher/src/delivery-log.ts).
  const listWebhookDeliveriesHandler: Handler<typeof listWebhookDeliveries> = async (req) => {
    await assertSubscriptionsOf(deps.pool, req.params.id, req.actor);
    return { data: await deliveryLog(deps.pool, req.params.id) };
  };

  return {
    listMerchantSubscriptions: listHandler,
    listSubscriptionImports: listImportsHandler,
    listWebhookDeliveries: listWebhookDeliveriesHandler,
  };
}
