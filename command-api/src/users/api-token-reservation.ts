import type { EventOf } from '@mrn/contracts';
import { conflict } from '@mrn/platform';
import { assertNever, type Decider } from '../decider.ts';

/**
 * `api-token-{sha256}`: the user an API authentication token was issued to. The token check of
 * POST /api/v2/token reads this stream and the user's own, never a read model, so credentials work at
 * once. A token is random (96 bits) and issued once; the stream refuses a second holder all the same.
 */
export type ApiTokenEvent = EventOf<'ApiTokenAssigned'>;
export type ApiTokenState = { holder: string | null };
export type ApiTokenCommand = { type: 'AssignApiToken'; userId: string };

export const apiTokenDecider: Decider<ApiTokenCommand, ApiTokenState, ApiTokenEvent> = {
  initialState: () => ({ holder: null }),
  evolve(_state, event) {
    switch (event.type) {
      case 'ApiTokenAssigned':
        return { holder: event.data.userId };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'AssignApiToken':
        if (state.holder === command.userId) return [];
        if (state.holder) throw conflict('This API token is already in use.');
        return [{ type: 'ApiTokenAssigned', data: { userId: command.userId } }];
      default:
        return assertNever(command.type);
    }
  },
};

/**
 * `api-token-backfill`: the tokens granted before tokens were reserved have their reservations (the
 * backfill at command-api's start, auth/api-token-backfill.ts). Recorded once, however many processes
 * finish the backfill at once, so that later starts skip the scan of the log.
 */
export type ApiTokenBackfillEvent = EventOf<'ApiTokensBackfilled'>;
export type ApiTokenBackfillState = { done: boolean };
export type ApiTokenBackfillCommand = { type: 'RecordApiTokenBackfill'; found: number };

export const apiTokenBackfillDecider: Decider<
  ApiTokenBackfillCommand,
  ApiTokenBackfillState,
  ApiTokenBackfillEvent
> = {
  initialState: () => ({ done: false }),
  evolve(_state, event) {
    switch (event.type) {
      case 'ApiTokensBackfilled':
        return { done: true };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RecordApiTokenBackfill':
        return state.done ? [] : [{ type: 'ApiTokensBackfilled', data: { found: command.found } }];
      default:
        return assertNever(command.type);
    }
  },
};
