import type {
  AccountFields,
  archiveAccount,
  cancelTrial,
  createAccount,
  grantAccountApiAccess,
  recalculateContribution,
  revokeAccountApiAccess,
  startTrial,
  toggleAccountMfaRequired,
  toggleContributionOverride,
  updateAccount,
} from '@mrn/contracts';
import { type Actor, type Handler, newId } from '@mrn/platform';
import { transact } from '../command-handler.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { closeAccountSessions, closeApiSessions } from '../credentials/sessions.ts';
import { assertSafeWebhookUrl } from '../webhooks/webhook-url.ts';
import type { AccountCommand, AccountDetailsInput } from './account.ts';
import { accounts } from './aggregate.ts';
import { ninetyDayContribution } from './contribution.ts';

const toDetails = (a: AccountFields): AccountDetailsInput => ({
  name: a.name,
  website: a.website,
  primaryContactEmail: a.primary_contact_email.toLowerCase(),
  merchantSubscriptionEnabled: a.merchant_subscription_enabled ?? false,
  merchantSubscriptionNotificationEmail: a.merchant_subscription_notification_email ?? null,
  merchantSubscriptionNotificationWebhook: a.merchant_subscription_notification_webhook ?? null,
  watchSearchedMerchants: a.watch_searched_merchants,
  watchSearchedMonths: a.watch_searched_months,
  shoppedAlertThreshold: a.shopped_alert_threshold,
  webhookEventTypes: a.webhook_event_types,
});

type Simple =
  | typeof archiveAccount
  | typeof grantAccountApiAccess
  | typeof revokeAccountApiAccess
  | typeof startTrial
  | typeof cancelTrial
  | typeof toggleAccountMfaRequired
  | typeof toggleContributionOverride;

export function accountHandlers(deps: CommandDeps) {
  const ctxOf = (req: { actor: Actor }) => ({ now: deps.clock.now(), actor: req.actor });
  const simple =
    (command: AccountCommand, after?: (accountId: string) => Promise<void>): Handler<Simple> =>
    async (req) => {
      const result = await accounts.handle(deps, req.params.id, command, ctxOf(req), metadataFor(req));
      // Sessions end with the command, on every process, not when a read model catches up.
      if (after && result.events.length > 0) await after(req.params.id);
      return { data: { resource_id: req.params.id }, position: result.position };
    };

  // Opening the funder and applying its settings are decided together before anything is written:
  // a setting the funder may not have (subscriptions on BASIC) refuses the whole creation.
  const createAccountHandler: Handler<typeof createAccount> = async (req) => {
    const accountId = newId();
    const d = toDetails(req.body.account);
    await assertSafeWebhookUrl(d.merchantSubscriptionNotificationWebhook, deps.config.WEBHOOK_ALLOW_LOOPBACK);
    const { position } = await transact(
      deps,
      { ctx: ctxOf(req), metadata: metadataFor(req) },
      async (unit) => {
        await unit.decide(accounts, accountId, {
          type: 'OpenAccount',
          accountId,
          name: d.name,
          website: d.website,
          primaryContactEmail: d.primaryContactEmail,
          planLevel: 'BASIC',
          membershipStatus: 'none',
          isPlatform: false,
        });
        await unit.decide(accounts, accountId, { type: 'UpdateAccount', details: d });
      },
    );
    req.reply.code(201);
    return { data: { resource_id: accountId }, position };
  };

  const updateAccountHandler: Handler<typeof updateAccount> = async (req) => {
    const details = toDetails(req.body.account);
    await assertSafeWebhookUrl(
      details.merchantSubscriptionNotificationWebhook,
      deps.config.WEBHOOK_ALLOW_LOOPBACK,
    );
    const result = await accounts.handle(
      deps,
      req.params.id,
      { type: 'UpdateAccount', details },
      ctxOf(req),
      metadataFor(req),
    );
    return { data: { resource_id: req.params.id }, position: result.position };
  };

  // The figure measured now from the contribution read model, then judged by the account decider
  // (which also refuses callers who may not ask, before anything is written).
  const recalculateContributionHandler: Handler<typeof recalculateContribution> = async (req) => {
    const ctx = ctxOf(req);
    const percent = await ninetyDayContribution(deps.pool, req.params.id, ctx.now);
    const result = await accounts.handle(
      deps,
      req.params.id,
      { type: 'AssessContribution', percent, requested: true },
      ctx,
      metadataFor(req),
    );
    return { data: { resource_id: req.params.id }, position: result.position };
  };

  return {
    createAccount: createAccountHandler,
    recalculateContribution: recalculateContributionHandler,
    toggleContributionOverride: simple({ type: 'ToggleContributionOverride' }),
    updateAccount: updateAccountHandler,
    archiveAccount: simple({ type: 'ArchiveAccount' }, (accountId) =>
      closeAccountSessions(deps.pool, accountId),
    ),
    grantAccountApiAccess: simple({ type: 'GrantApiAccess' }),
    revokeAccountApiAccess: simple({ type: 'RevokeApiAccess' }, (accountId) =>
      closeApiSessions(deps.pool, { accountId }),
    ),
    startTrial: simple({ type: 'StartTrial' }),
    cancelTrial: simple({ type: 'CancelTrial' }),
    toggleAccountMfaRequired: simple({ type: 'ToggleMfaRequired' }),
  };
}
