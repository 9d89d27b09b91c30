import {
  type EventOf,
  SCREENING_DAILY_EINS,
  SCREENING_MAX_EINS,
  SCREENING_TEXTS,
  type ScreeningSource,
} from '@mrn/contracts';
import { rateLimited, ruleBroken } from '@mrn/platform';
import { assertNever, type Decider } from '../decider.ts';

// Portfolio screening (issue 32, contracts/src/domain/screening.ts) on two streams written in one atomic
// append: `screening-{id}`, the request with what it screens, and `screening-allowance-{account}-{day}`,
// the day's allowance, so that screenings sent at once cannot pass it together.

export interface ScreeningRow {
  row: number;
  input: string;
  fein: string;
}
export interface RejectedRow {
  row: number;
  input: string;
  problem: string;
}

export type ScreeningEvent = EventOf<'ScreeningRequested'>;
export type ScreeningState = { requested: boolean };
export type ScreeningCommand = {
  type: 'RequestScreening';
  screeningId: string;
  accountId: string;
  userId: string;
  source: ScreeningSource;
  fileName: string | null;
  rows: readonly ScreeningRow[];
  rejected: readonly RejectedRow[];
};

export const screeningDecider: Decider<ScreeningCommand, ScreeningState, ScreeningEvent> = {
  initialState: () => ({ requested: false }),
  evolve(_state, event) {
    switch (event.type) {
      case 'ScreeningRequested':
        return { requested: true };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RequestScreening': {
        // Asked again with the same id: a retried submission.
        if (state.requested) return [];
        // Each row's problem, as a refused field: what the file must change.
        if (command.rows.length === 0)
          throw ruleBroken(SCREENING_TEXTS.noEins, {
            fields: command.rejected.map((r) => ({ field: `row ${r.row}`, message: r.problem })),
          });
        if (command.rows.length > SCREENING_MAX_EINS)
          throw ruleBroken(SCREENING_TEXTS.tooMany(command.rows.length));
        const { type: _, ...data } = command;
        return [
          {
            type: 'ScreeningRequested',
            data: { ...data, rows: [...data.rows], rejected: [...data.rejected] },
          },
        ];
      }
      default:
        return assertNever(command.type);
    }
  },
};

export type AllowanceEvent = EventOf<'ScreeningAllowanceUsed'>;
export type AllowanceState = { used: number; screenings: ReadonlySet<string> };
export type AllowanceCommand = {
  type: 'UseAllowance';
  accountId: string;
  day: string;
  screeningId: string;
  eins: number;
};

/** The UTC day a time falls on, as the allowance streams are named. */
export const allowanceDay = (at: Date): string => at.toISOString().slice(0, 10);

export const allowanceDecider: Decider<AllowanceCommand, AllowanceState, AllowanceEvent> = {
  initialState: () => ({ used: 0, screenings: new Set() }),
  evolve(state, event) {
    switch (event.type) {
      case 'ScreeningAllowanceUsed':
        return {
          used: state.used + event.data.eins,
          screenings: new Set([...state.screenings, event.data.screeningId]),
        };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, ctx) {
    switch (command.type) {
      case 'UseAllowance': {
        if (state.screenings.has(command.screeningId)) return [];
        const left = Math.max(0, SCREENING_DAILY_EINS - state.used);
        if (command.eins > left) {
          const now = ctx.now;
          const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
          throw rateLimited(SCREENING_TEXTS.allowance(left), Math.ceil((midnight - now.getTime()) / 1000));
        }
        const { type: _, ...data } = command;
        return [{ type: 'ScreeningAllowanceUsed', data }];
      }
      default:
        return assertNever(command.type);
    }
  },
};
