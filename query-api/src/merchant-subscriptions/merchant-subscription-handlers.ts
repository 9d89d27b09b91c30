import {
  buildPath,
  type exportMerchantSubscriptions,
  type listMerchantSubscriptions,
  type listSubscriptionImports,
  routes,
  SUBSCRIPTION_TEXTS,
  type SubscriptionImportView,
} from '@mrn/contracts';
import { type Actor, forbidden, type Handler, notFound, type Pool } from '@mrn/platform';
import { merchantSubscriptionPage } from '@mrn/projections/published';
import type { QueryDeps } from '../context.ts';
import { iso, pagination } from '../views.ts';
import { watchedMerchantsCsv } from './subscription-export.ts';

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
    const { data, total } = await merchantSubscriptionPage(deps.pool, accountId, {
      page,
      perPage: per_page,
      search,
    });
    return { data, pagination: pagination(page, per_page, total) };
  };

  const exportHandler: Handler<typeof exportMerchantSubscriptions> = async (req) => {
    const accountId = req.params.id;
    await assertSubscriptionsOf(deps.pool, accountId, req.actor);
    const now = new Date();
    const csv = await watchedMerchantsCsv(deps.pool, accountId, req.query.search, now);
    const product = deps.config.PRODUCT_NAME.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    req.reply.header('content-type', 'text/csv; charset=utf-8');
    req.reply.header(
      'content-disposition',
      `attachment; filename="${product}-watched-merchants-${stamp}.csv"`,
    );
    return csv;
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

  return {
    listMerchantSubscriptions: listHandler,
    exportMerchantSubscriptions: exportHandler,
    listSubscriptionImports: listImportsHandler,
  };
}
