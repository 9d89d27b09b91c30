import {
  type addMerchantSubscription,
  type deleteAllMerchantSubscriptions,
  type deleteSelectedMerchantSubscriptions,
  SUBSCRIPTION_TEXTS,
  type toggleMerchantSubscription,
} from '@mrn/contracts';
import { type Actor, forbidden, gone, type Handler, notFound, type Position } from '@mrn/platform';
import { merchantSubscriptionPage } from '@mrn/projections/published';
import { loadAccount } from '../accounts/account-service.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { merchants } from '../merchants/aggregates.ts';
import { MERCHANT_TEXTS } from '../merchants/merchant.ts';
import { subscriptions } from './aggregate.ts';
import { type SubscriptionsCommand, subscriptionId } from './subscriptions.ts';

/**
 * The account the caller may manage subscriptions of: its own admins and platform admins; another
 * funder's admin is told it does not exist (as for a made-up id); only PRO accounts with subscriptions
 * enabled have them.
 */
export async function subscriptionAccount(deps: CommandDeps, accountId: string, actor: Actor): Promise<void> {
  if (!actor.isDmAdmin && actor.accountId !== accountId) throw notFound('Funder not found.');
  if (!actor.isDmAdmin && !actor.isAdmin) throw forbidden();
  const { state } = await loadAccount(deps, accountId);
  if (state.status === 'none') throw notFound('Funder not found.');
  if (state.status !== 'open' || state.planLevel !== 'PRO' || !state.merchantSubscriptionEnabled)
    throw forbidden(SUBSCRIPTION_TEXTS.notEnabled);
}

export const paginationOf = (page: number, perPage: number, total: number) => ({
  current_page: page,
  per_page: perPage,
  total_pages: Math.max(1, Math.ceil(total / perPage)),
  total_count: total,
});

/** Until the subscriptions read model has applied `position` (or the consistency timeout passed). */
async function caughtUp(deps: CommandDeps, position: Position | undefined): Promise<void> {
  if (!position) return;
  await deps.readModels.waitFor(position, ['merchant_subscriptions'], deps.config.CONSISTENCY_TIMEOUT_MS);
}

export function merchantSubscriptionHandlers(deps: CommandDeps) {
  const ctxOf = (req: { actor: Actor }) => ({ now: deps.clock.now(), actor: req.actor });

  const addHandler: Handler<typeof addMerchantSubscription> = async (req) => {
    const accountId = req.params.id;
    await subscriptionAccount(deps, accountId, req.actor);
    const fein = req.body.merchant_subscription.fein;
    const result = await subscriptions.handle(
      deps,
      accountId,
      { type: 'Subscribe', accountId, feins: [fein], source: 'web' },
      ctxOf(req),
      metadataFor(req),
    );
    // Subscribing again writes nothing: 200 and "already watched" rather than 201 "added".
    const alreadyWatched = result.events.length === 0;
    req.reply.code(alreadyWatched ? 200 : 201);
    const id = subscriptionId(accountId, fein);
    return {
      data: { id, resource_id: id, fein, already_watched: alreadyWatched },
      message: alreadyWatched
        ? SUBSCRIPTION_TEXTS.alreadyWatched(fein)
        : SUBSCRIPTION_TEXTS.added(deps.config.PRODUCT_NAME),
      ...(result.position ? { position: result.position } : {}),
    };
  };

  // GET /api/merchants/:id/toggle_subscription (core spec §7): a GET that changes state, as the spec has
  // it. The caller's own account watches the live merchant's EIN, or stops; the choice is made on the
  // subscriptions state the command is decided on, so a lost race decides again on the newer state.
  const toggleHandler: Handler<typeof toggleMerchantSubscription> = async (req) => {
    const accountId = req.actor.accountId;
    await subscriptionAccount(deps, accountId, req.actor);
    const { state: merchant } = await merchants.load(deps.store, req.params.id);
    if (merchant.status === 'none') throw notFound(MERCHANT_TEXTS.notFound);
    if (merchant.status === 'archived') throw gone(MERCHANT_TEXTS.archived);
    const fein = merchant.fein;
    let watched = false;
    const result = await subscriptions.handle(
      deps,
      accountId,
      (state): SubscriptionsCommand => {
        watched = !state.feins.has(fein);
        return watched
          ? { type: 'Subscribe', accountId, feins: [fein], source: 'web' }
          : { type: 'Unsubscribe', accountId, feins: [fein] };
      },
      ctxOf(req),
      metadataFor(req),
    );
    return {
      data: { resource_id: req.params.id, fein, has_merchant_subscription: watched },
      message: watched ? SUBSCRIPTION_TEXTS.added(deps.config.PRODUCT_NAME) : SUBSCRIPTION_TEXTS.deleted,
      ...(result.position ? { position: result.position } : {}),
    };
  };

  const afterDeletion = async (
    accountId: string,
    position: Position | undefined,
    perPage: number,
    search: string | undefined,
  ) => {
    await caughtUp(deps, position);
    const { data, total } = await merchantSubscriptionPage(deps.pool, accountId, {
      page: 1,
      perPage,
      search,
    });
    return {
      data,
      pagination: paginationOf(1, perPage, total),
      message: SUBSCRIPTION_TEXTS.deleted,
      ...(position ? { position } : {}),
    };
  };

  const deleteSelectedHandler: Handler<typeof deleteSelectedMerchantSubscriptions> = async (req) => {
    const accountId = req.params.account_id;
    await subscriptionAccount(deps, accountId, req.actor);
    const ids = new Set(req.body.merchant_subscription_ids);
    // Ids are derived from this account and the EIN: another account's ids match nothing here.
    const result = await subscriptions.handle(
      deps,
      accountId,
      (state) => ({
        type: 'Unsubscribe' as const,
        accountId,
        feins: [...state.feins].filter((f) => ids.has(subscriptionId(accountId, f))),
      }),
      ctxOf(req),
      metadataFor(req),
    );
    return afterDeletion(accountId, result.position, req.body.per_page, req.body.search);
  };

  const deleteAllHandler: Handler<typeof deleteAllMerchantSubscriptions> = async (req) => {
    const accountId = req.params.account_id;
    await subscriptionAccount(deps, accountId, req.actor);
    const result = await subscriptions.handle(
      deps,
      accountId,
      (state) => ({ type: 'Unsubscribe' as const, accountId, feins: [...state.feins] }),
      ctxOf(req),
      metadataFor(req),
    );
    return afterDeletion(accountId, result.position, req.body.per_page, req.body.search);
  };

  return {
    addMerchantSubscription: addHandler,
    toggleMerchantSubscription: toggleHandler,
    deleteSelectedMerchantSubscriptions: deleteSelectedHandler,
    deleteAllMerchantSubscriptions: deleteAllHandler,
  };
}
