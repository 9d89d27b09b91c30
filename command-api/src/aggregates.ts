import { streams } from '@mrn/contracts';
import { defineAggregate } from './command-handler.ts';
import { accountDecider } from './domain/account/account.ts';
import { appSettingsDecider } from './domain/app-settings/app-settings.ts';
import { stripeEventDecider } from './domain/billing/stripe-event.ts';
import { disputeDecider } from './domain/dispute/dispute.ts';
import { einDecider } from './domain/merchant/ein-reservation.ts';
import { merchantDecider } from './domain/merchant/merchant.ts';
import { noteRegistryDecider } from './domain/merchant/note-registry.ts';
import { subscriptionsDecider } from './domain/subscriptions/subscriptions.ts';
import { apiTokenDecider } from './domain/user/api-token-reservation.ts';
import { emailReservationDecider } from './domain/user/email-reservation.ts';
import { userDecider } from './domain/user/user.ts';

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
