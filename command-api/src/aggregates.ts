import { streams } from '@mrn/contracts';
import { accountDecider } from './accounts/account.ts';
import { appSettingsDecider } from './app-settings/app-settings.ts';
import { stripeEventDecider } from './billing/stripe-event.ts';
import { defineAggregate } from './command-handler.ts';
import { disputeDecider } from './disputes/dispute.ts';
import { subscriptionsDecider } from './merchant-subscriptions/subscriptions.ts';
import { einDecider } from './merchants/ein-reservation.ts';
import { merchantDecider } from './merchants/merchant.ts';
import { noteRegistryDecider } from './merchants/note-registry.ts';
import { apiTokenDecider } from './users/api-token-reservation.ts';
import { emailReservationDecider } from './users/email-reservation.ts';
import { userDecider } from './users/user.ts';

/** Every aggregate, bound once to its decider and stream naming (DESIGN §3 stream names). */
export const accounts = defineAggregate({ decider: accountDecider, streamId: streams.account });
export const users = defineAggregate({ decider: userDecider, streamId: streams.user });
export const emailReservations = defineAggregate({
  decider: emailReservationDecider,
  streamId: streams.userEmail,
});
export const apiTokens = defineAggregate({ decider: apiTokenDecider, streamId: streams.apiToken });
export const merchants = defineAggregate({ decider: merchantDecider, streamId: streams.merchant });
export const einReservations = defineAggregate({ decider: einDecider, streamId: streams.ein });
export const noteRegistry = defineAggregate({ decider: noteRegistryDecider, streamId: streams.note });
export const disputes = defineAggregate({ decider: disputeDecider, streamId: streams.dispute });
export const appSettings = defineAggregate({
  decider: appSettingsDecider,
  streamId: () => streams.appSettings(),
});
export const stripeEvents = defineAggregate({ decider: stripeEventDecider, streamId: streams.stripeEvent });
export const subscriptions = defineAggregate({
  decider: subscriptionsDecider,
  streamId: streams.subscriptions,
});
