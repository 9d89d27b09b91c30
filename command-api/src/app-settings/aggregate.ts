import { streams } from '@mrn/contracts';
import { defineAggregate } from '../command-handler.ts';
import { appSettingsDecider } from './app-settings.ts';

/** Bound once to its decider and stream naming (DESIGN §3 stream names). */
export const appSettings = defineAggregate({
  decider: appSettingsDecider,
  streamId: () => streams.appSettings(),
});
