import { streams } from '@mrn/contracts';
import { defineAggregate } from '../command-handler.ts';
import { accountDecider } from './account.ts';

/** Bound once to its decider and stream naming (DESIGN §3 stream names). */
export const accounts = defineAggregate({ decider: accountDecider, streamId: streams.account });
