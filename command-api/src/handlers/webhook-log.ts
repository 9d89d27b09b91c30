import { type redeliverWebhook, type rotateWebhookSigningSecret, SUBSCRIPTION_TEXTS } from '@mrn/contracts';
import { conflict, type Handler, notFound } from '@mrn/platform';
import { previousSecretValidUntil, redeliver, rotateWebhookSecret } from '@mrn/webhook-dispatcher';
import type { CommandDeps } from '../context.ts';
import { subscriptionAccount } from './merchant-subscriptions.ts';

/**
 * The webhook log's actions. Deliveries and signing secrets are the dispatcher's own state, not events
 * (a secret must never reach the log, DESIGN §5): these commands go through its functions, which keep
 * their rules in single statements (one redelivery queued, one rotation at a time).
 */
export function webhookLogHandlers(deps: CommandDeps) {
  const redeliverHandler: Handler<typeof redeliverWebhook> = async (req) => {
    await subscriptionAccount(deps, req.params.id, req.actor);
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

  const rotateHandler: Handler<typeof rotateWebhookSigningSecret> = async (req) => {
    await subscriptionAccount(deps, req.params.id, req.actor);
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

  return { redeliverWebhook: redeliverHandler, rotateWebhookSigningSecret: rotateHandler };
}
