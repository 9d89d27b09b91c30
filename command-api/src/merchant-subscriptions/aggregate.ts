import { streams } from '@mrn/contracts';
import { defineAggregate } from '../command-handler.ts';
import { subscriptionsDecider } from './subscriptions.ts';

/** Bound once to its decider and stream naming (DESIGN §3 stream names). */
export const subscriptions = defineAggregate({
  decider: subscriptionsDecider,
  streamId: streams.subscriptions,
});
