import { streams } from '@mrn/contracts';
import type { EventMetadata } from '@mrn/platform';
import { executeCommand, loadAggregate } from '../command-handler.ts';
import type { CommandDeps } from '../context.ts';
import { type AccountCommand, accountDecider } from '../domain/account/account.ts';
import type { CommandContext } from '../domain/decider.ts';

export function openAccount(
  deps: Pick<CommandDeps, 'store'>,
  command: Omit<Extract<AccountCommand, { type: 'OpenAccount' }>, 'type'>,
  ctx: CommandContext,
  metadata: EventMetadata,
) {
  return executeCommand(
    deps,
    accountDecider,
    streams.account(command.accountId),
    { type: 'OpenAccount', ...command },
    ctx,
    metadata,
  );
}

export const loadAccount = (deps: Pick<CommandDeps, 'store'>, accountId: string) =>
  loadAggregate(deps.store, accountDecider, streams.account(accountId));
