import type {
  AccountFields,
  archiveAccount,
  cancelTrial,
  createAccount,
  grantAccountApiAccess,
  revokeAccountApiAccess,
  startTrial,
  toggleAccountMfaRequired,
  updateAccount,
} from '@mrn/contracts';
import { streams } from '@mrn/contracts';
import { type Handler, newId } from '@mrn/platform';
import { executeCommand } from '../command-handler.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { type AccountCommand, type AccountDetails, accountDecider } from '../domain/account/account.ts';

const toDetails = (a: AccountFields): AccountDetails => ({
  name: a.name,
  website: a.website,
  primaryContactEmail: a.primary_contact_email.toLowerCase(),
  merchantSubscriptionEnabled: a.merchant_subscription_enabled ?? false,
  merchantSubscriptionNotificationEmail: a.merchant_subscription_notification_email ?? null,
  merchantSubscriptionNotificationWebhook: a.merchant_subscription_notification_webhook ?? null,
});

type Simple =
  | typeof archiveAccount
  | typeof grantAccountApiAccess
  | typeof revokeAccountApiAccess
  | typeof startTrial
  | typeof cancelTrial
  | typeof toggleAccountMfaRequired;

export function accountHandlers(deps: CommandDeps) {
  const run = (req: Parameters<Handler<Simple>>[0], command: AccountCommand) =>
    executeCommand(
      deps,
      accountDecider,
      streams.account(req.params.id),
      command,
      { now: new Date(), actor: req.actor },
      metadataFor(req),
    );
  const simple =
    (command: AccountCommand): Handler<Simple> =>
    async (req) => {
      const result = await run(req, command);
      return { data: { resource_id: req.params.id }, position: result.position };
    };

  const createAccountHandler: Handler<typeof createAccount> = async (req) => {
    const accountId = newId();
    const d = toDetails(req.body.account);
    const ctx = { now: new Date(), actor: req.actor };
    const metadata = metadataFor(req);
    const opened = await executeCommand(
      deps,
      accountDecider,
      streams.account(accountId),
      {
        type: 'OpenAccount',
        accountId,
        name: d.name,
        website: d.website,
        primaryContactEmail: d.primaryContactEmail,
        planLevel: 'BASIC',
        membershipStatus: 'none',
        isPlatform: false,
      },
      ctx,
      metadata,
    );
    // Subscription settings given at creation are applied like any later update.
    const updated = await executeCommand(
      deps,
      accountDecider,
      streams.account(accountId),
      { type: 'UpdateAccount', details: d },
      ctx,
      metadata,
    );
    req.reply.code(201);
    return { data: { resource_id: accountId }, position: updated.position ?? opened.position };
  };

  const updateAccountHandler: Handler<typeof updateAccount> = async (req) => {
    const result = await executeCommand(
      deps,
      accountDecider,
      streams.account(req.params.id),
      { type: 'UpdateAccount', details: toDetails(req.body.account) },
      { now: new Date(), actor: req.actor },
      metadataFor(req),
    );
    return { data: { resource_id: req.params.id }, position: result.position };
  };

  return {
    createAccount: createAccountHandler,
    updateAccount: updateAccountHandler,
    archiveAccount: simple({ type: 'ArchiveAccount' }),
    grantAccountApiAccess: simple({ type: 'GrantApiAccess' }),
    revokeAccountApiAccess: simple({ type: 'RevokeApiAccess' }),
    startTrial: simple({ type: 'StartTrial' }),
    cancelTrial: simple({ type: 'CancelTrial' }),
    toggleAccountMfaRequired: simple({ type: 'ToggleMfaRequired' }),
  };
}
