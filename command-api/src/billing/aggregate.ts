import { streams } from '@mrn/contracts';
import { defineAggregate } from '../command-handler.ts';
import { stripeEventDecider } from './stripe-event.ts';

/** Bound once to its decider and stream naming (DESIGN §3 stream names). */
export const stripeEvents = defineAggregate({ decider: stripeEventDecider, streamId: streams.stripeEvent });
