import type { EventOf } from '@mrn/contracts';
import { conflict } from '@mrn/platform';
import { assertNever, type Decider } from '../decider.ts';

/**
 * One live merchant per EIN (DESIGN §3): the `ein-{digits}` stream names its holder. Only one of
 * many concurrent adds can append at the revision it read, so only one can win.
 */
export type EinEvent = EventOf<'EinReserved'> | EventOf<'EinReleased'>;
export type EinState = { holder: string | null };
export type EinCommand =
  /** `holderIsLive` is what the handler found: a holder whose merchant was archived no longer counts. */
  | { type: 'ReserveEin'; fein: string; merchantId: string; holderIsLive: boolean }
  | { type: 'ReleaseEin'; fein: string; merchantId: string };

export const MERCHANT_EXISTS = 'A merchant with this EIN/BN already exists.';

export const einDecider: Decider<EinCommand, EinState, EinEvent> = {
  initialState: () => ({ holder: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'EinReserved':
        return { holder: event.data.merchantId };
      case 'EinReleased':
        return state.holder === event.data.merchantId ? { holder: null } : state;
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ReserveEin':
        if (state.holder === command.merchantId) return [];
        if (state.holder && command.holderIsLive)
          throw conflict(MERCHANT_EXISTS, { resource_id: state.holder });
        return [{ type: 'EinReserved', data: { fein: command.fein, merchantId: command.merchantId } }];
      case 'ReleaseEin':
        if (state.holder !== command.merchantId) return [];
        return [{ type: 'EinReleased', data: { fein: command.fein, merchantId: command.merchantId } }];
      default:
        return assertNever(command);
    }
  },
};
