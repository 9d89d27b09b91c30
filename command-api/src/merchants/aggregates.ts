import { streams } from '@mrn/contracts';
import { defineAggregate } from '../command-handler.ts';
import { einDecider } from './ein-reservation.ts';
import { merchantDecider } from './merchant.ts';
import { noteRegistryDecider } from './note-registry.ts';

/** Bound once to its decider and stream naming (DESIGN §3 stream names). */
export const merchants = defineAggregate({ decider: merchantDecider, streamId: streams.merchant });
export const einReservations = defineAggregate({ decider: einDecider, streamId: streams.ein });
export const noteRegistry = defineAggregate({ decider: noteRegistryDecider, streamId: streams.note });
