import type { EventMetadata, EventStore } from '@mrn/platform';
import type { CommandContext } from '../decider.ts';
import type { AccountCommand } from './account.ts';
import { accounts } from './aggregate.ts';

export const openAccount = (
  deps: { store: EventStore },
  command: Omit<Extract<AccountCommand, { type: 'OpenAccount' }>, 'type'>,
  ctx: CommandContext,
  metadata: EventMetadata,
) => accounts.handle(deps, command.accountId, { type: 'OpenAccount', ...command }, ctx, metadata);

export const loadAccount = (deps: { store: EventStore }, accountId: string) =>
  accounts.load(deps.store, accountId);
