import { streams } from '@mrn/contracts';
import { defineAggregate } from '../command-handler.ts';
import { disputeDecider } from './dispute.ts';

/** Bound once to its decider and stream naming (DESIGN §3 stream names). */
export const disputes = defineAggregate({ decider: disputeDecider, streamId: streams.dispute });
