import { streams } from '@mrn/contracts';
import { defineAggregate } from '../command-handler.ts';
import { apiTokenDecider } from './api-token-reservation.ts';
import { emailReservationDecider } from './email-reservation.ts';
import { userDecider } from './user.ts';

/** Bound once to its decider and stream naming (DESIGN §3 stream names). */
export const users = defineAggregate({ decider: userDecider, streamId: streams.user });
export const emailReservations = defineAggregate({
  decider: emailReservationDecider,
  streamId: streams.userEmail,
});
export const apiTokens = defineAggregate({ decider: apiTokenDecider, streamId: streams.apiToken });
