import type { EventData, EventOf } from '@mrn/contracts';
import { assertNever, type Decider } from '../decider.ts';

export type AppSettingsEvent = EventOf<'AppSettingsChanged'>;
export type AppSettingsState = EventData<'AppSettingsChanged'>;
export type AppSettingsCommand = { type: 'ChangeAppSettings' } & EventData<'AppSettingsChanged'>;

export const defaultAppSettings = (): AppSettingsState => ({
  dashboardMessageEnabled: false,
  dashboardMessageSeverity: 'info',
  dashboardMessageTitle: null,
  dashboardMessage: null,
});

export const appSettingsDecider: Decider<AppSettingsCommand, AppSettingsState, AppSettingsEvent> = {
  initialState: defaultAppSettings,
  evolve(_state, event) {
    switch (event.type) {
      case 'AppSettingsChanged':
        return event.data;
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ChangeAppSettings': {
        const { type: _, ...next } = command;
        // Saving the same settings again records nothing.
        if (JSON.stringify(next) === JSON.stringify(state)) return [];
        return [{ type: 'AppSettingsChanged', data: next }];
      }
      default:
        return assertNever(command.type);
    }
  },
};
