import {
  type getWebhookDelivery,
  type listWebhookDeliveries,
  type RoutesOf,
  type redeliverWebhook,
  type rotateWebhookSigningSecret,
  routes,
  SUBSCRIPTION_TEXTS,
} from '@mrn/contracts';
import {
  type Actor,
  type Clock,
  type Config,
  conflict,
  forbidden,
  type Handler,
  type HandlersFor,
  notFound,
  type Pool,
  registerRoutes,
} from '@mrn/platform';
import type { FastifyInstance } from 'fastify';
import { deliveryLog, deliveryWithAttempts, redeliver } from '../delivery/delivery-log.ts';
import { previousSecretValidUntil, rotateWebhookSecret } from '../signing/signing.ts';

/** The dispatcher's slice of the route table: its delivery log and its signing secrets. */
export const webhookRoutes = Object.fromEntries(
  Object.entries(routes).filter(([, r]) => r.service === 'webhooks'),
) as RoutesOf<'webhooks'>;

interface WebhookApiDeps {
  app: FastifyInstance;
  pool: Pool;
  config: Config;
  clock: Clock;
}

/**
 * The account's admins (or a platform admin) of a PRO funder with merchant subscriptions on, as the
 * dispatcher knows the funder from the log (webhook_accounts: its own copy, as of its checkpoint).
 */
async function assertWebhookAccount(pool: Pool, accountId: string, actor: Actor): Promise<void> {
  if (!actor.isDmAdmin && actor.accountId !== accountId) throw notFound('Funder not found.');
  if (!actor.isDmAdmin && !actor.isAdmin) throw forbidden();
  const { rows } = await pool.query<{
    enabled: boolean;
    plan_level: string | null;
    archived: boolean;
    membership_canceled: boolean;
  }>(
    'select enabled, plan_level, archived, membership_canceled from webhook_accounts where account_id = $1',
    [accountId],
  );
  const account = rows[0];
  if (!account) throw notFound('Funder not found.');
  if (account.archived || account.plan_level !== 'PRO' || !account.enabled)
    throw forbidden(SUBSCRIPTION_TEXTS.notEnabled);
}

/**
 * The webhook log (accounts spec §6) served by the dispatcher that owns it: deliveries and signing
 * secrets are its own state, never events (a secret must never reach the log, DESIGN §5), so neither
 * the command nor the query side touches them; each rule is one statement (one redelivery queued, one
 * rotation at a time).
 */
export function webhookHandlers(deps: WebhookApiDeps): HandlersFor<RoutesOf<'webhooks'>> {
  const list: Handler<typeof listWebhookDeliveries> = async (req) => {
    await assertWebhookAccount(deps.pool, req.params.id, req.actor);
    return { data: await deliveryLog(deps.pool, req.params.id) };
  };

  const get: Handler<typeof getWebhookDelivery> = async (req) => {
    await assertWebhookAccount(deps.pool, req.params.id, req.actor);
    const delivery = await deliveryWithAttempts(deps.pool, req.params.id, req.params.delivery_id);
    if (!delivery) throw notFound(SUBSCRIPTION_TEXTS.deliveryNotFound);
    return { data: delivery };
  };

  const redeliverHandler: Handler<typeof redeliverWebhook> = async (req) => {
    await assertWebhookAccount(deps.pool, req.params.id, req.actor);
    const outcome = await redeliver(deps.pool, req.params.id, req.params.delivery_id, deps.clock.now());
    if (!outcome.ok) {
      if (outcome.reason === 'not_found') throw notFound(SUBSCRIPTION_TEXTS.deliveryNotFound);
      throw conflict(
        outcome.reason === 'no_webhook'
          ? SUBSCRIPTION_TEXTS.redeliveryNoWebhook
          : SUBSCRIPTION_TEXTS.redeliveryInProgress,
      );
    }
    return { data: outcome.entry, message: SUBSCRIPTION_TEXTS.redeliveryQueued };
  };

  const rotate: Handler<typeof rotateWebhookSigningSecret> = async (req) => {
    await assertWebhookAccount(deps.pool, req.params.id, req.actor);
    const now = deps.clock.now();
    const rotation = await rotateWebhookSecret(deps.pool, req.params.id, now);
    if (!rotation) {
      const until = await previousSecretValidUntil(deps.pool, req.params.id, now);
      throw conflict(SUBSCRIPTION_TEXTS.rotationTooSoon(until?.toISOString() ?? 'tomorrow'));
    }
    return {
      data: {
        merchant_subscription_webhook_secret: rotation.secret,
        previous_secret_valid_until: rotation.previousValidUntil.toISOString(),
      },
      message: SUBSCRIPTION_TEXTS.secretRotated,
    };
  };

  return {
    listWebhookDeliveries: list,
    getWebhookDelivery: get,
    redeliverWebhook: redeliverHandler,
    rotateWebhookSigningSecret: rotate,
  };
}

/** Mounts the dispatcher's routes on an HTTP shell (JWT registered on it). */
export function registerWebhookApi(deps: WebhookApiDeps): void {
  registerRoutes(deps.app, webhookRoutes, webhookHandlers(deps), {
    pool: deps.pool,
    validateResponses: deps.config.NODE_ENV !== 'production',
  });
}
