import type { EventOf } from '@mrn/contracts';
import { conflict, merchantSubscriptionId, notFound } from '@mrn/platform';
import { assertNever, type Decider } from '../decider.ts';

/**
 * One account's merchant subscriptions, `subscriptions-{accountId}` (DESIGN §3): the EINs it watches and
 * its CSV imports. Plan and "subscriptions enabled" are checked by the handlers on the account.
 */
export type SubscriptionEvent =
  | EventOf<'MerchantSubscriptionsAdded'>
  | EventOf<'MerchantSubscriptionsRemoved'>
  | EventOf<'SubscriptionImportQueued'>
  | EventOf<'SubscriptionImportStarted'>
  | EventOf<'SubscriptionImportFinished'>
  | EventOf<'SubscriptionImportFailed'>;

export type ImportStatus = 'queued' | 'processing' | 'done' | 'failed';

export interface SubscriptionsState {
  accountId: string | null;
  /** Watched EINs (9 digits). */
  feins: ReadonlySet<string>;
  /** The watched EINs that only a search watches, with the end of that watch (ISO); the rest are for good. */
  watchUntil: ReadonlyMap<string, string>;
  imports: ReadonlyMap<string, ImportStatus>;
}

export interface ImportCounts {
  processed: number;
  imported: number;
  skipped: number;
  errors: number;
}

export type SubscriptionsCommand =
  | { type: 'Subscribe'; accountId: string; feins: readonly string[]; source: 'web' | 'import' | 'api' }
  /** The "watch merchants we search" setting: watch these EINs until `watchUntil` (ISO), or longer. */
  | { type: 'WatchSearched'; accountId: string; feins: readonly string[]; watchUntil: string }
  /** The daily pass: end every search watch whose `watchUntil` is not after the command's time. */
  | { type: 'ExpireWatches' }
  | { type: 'Unsubscribe'; accountId: string; feins: readonly string[] }
  | { type: 'QueueImport'; accountId: string; importId: string; fileName: string; fileSize: number }
  | { type: 'StartImport'; importId: string }
  | { type: 'FinishImport'; importId: string; counts: ImportCounts }
  | { type: 'FailImport'; importId: string; reason: string };

/** EINs per MerchantSubscriptionsAdded: an import of 100,000 rows is 20 events, not 100,000. */
export const SUBSCRIBE_BATCH = 5_000;

export const SUBSCRIPTION_DOMAIN_TEXTS = {
  importNotFound: 'Import not found.',
  importExists: 'This import has already been queued.',
} as const;

/** Ids of subscriptions are derived from the account and the EIN (see merchantSubscriptionId). */
export const subscriptionId = merchantSubscriptionId;

const accountOf = (state: SubscriptionsState, fallback?: string) => state.accountId ?? fallback ?? '';

export const subscriptionsDecider: Decider<SubscriptionsCommand, SubscriptionsState, SubscriptionEvent> = {
  initialState: () => ({ accountId: null, feins: new Set(), watchUntil: new Map(), imports: new Map() }),
  evolve(state, event) {
    const accountId = state.accountId ?? event.data.accountId;
    switch (event.type) {
      case 'MerchantSubscriptionsAdded': {
        const feins = new Set(state.feins);
        const watchUntil = new Map(state.watchUntil);
        // One spelling of the instant (toISOString), so that ends compare as strings.
        const until = event.data.watchUntil && new Date(event.data.watchUntil).toISOString();
        for (const f of event.data.feins) {
          feins.add(f);
          if (until) watchUntil.set(f, until);
          else watchUntil.delete(f);
        }
        return { ...state, accountId, feins, watchUntil };
      }
      case 'MerchantSubscriptionsRemoved': {
        const feins = new Set(state.feins);
        const watchUntil = new Map(state.watchUntil);
        for (const f of event.data.feins) {
          feins.delete(f);
          watchUntil.delete(f);
        }
        return { ...state, accountId, feins, watchUntil };
      }
      case 'SubscriptionImportQueued':
        return { ...state, accountId, imports: new Map(state.imports).set(event.data.importId, 'queued') };
      case 'SubscriptionImportStarted':
        return {
          ...state,
          accountId,
          imports: new Map(state.imports).set(event.data.importId, 'processing'),
        };
      case 'SubscriptionImportFinished':
        return { ...state, accountId, imports: new Map(state.imports).set(event.data.importId, 'done') };
      case 'SubscriptionImportFailed':
        return { ...state, accountId, imports: new Map(state.imports).set(event.data.importId, 'failed') };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, ctx) {
    switch (command.type) {
      case 'Subscribe': {
        // Only EINs not watched yet, each once: subscribing again changes nothing. An EIN only a search
        // watches is subscribed again, without an end: a person asked for it, so it no longer expires.
        const fresh = [...new Set(command.feins)].filter(
          (f) => !state.feins.has(f) || state.watchUntil.has(f),
        );
        const events: SubscriptionEvent[] = [];
        for (let i = 0; i < fresh.length; i += SUBSCRIBE_BATCH) {
          events.push({
            type: 'MerchantSubscriptionsAdded',
            data: {
              accountId: accountOf(state, command.accountId),
              feins: fresh.slice(i, i + SUBSCRIBE_BATCH),
              source: command.source,
            },
          });
        }
        return events;
      }
      case 'WatchSearched': {
        // A person's subscription is never turned into one that ends, and a watch is only ever made
        // longer: deciding the same search twice (a reactor replaying after a crash) writes nothing.
        const until = new Date(command.watchUntil).toISOString();
        const longer = [...new Set(command.feins)].filter((f) => {
          if (!state.feins.has(f)) return true;
          const current = state.watchUntil.get(f);
          return current !== undefined && current < until;
        });
        if (longer.length === 0) return [];
        return [
          {
            type: 'MerchantSubscriptionsAdded',
            data: {
              accountId: accountOf(state, command.accountId),
              feins: longer,
              source: 'search',
              watchUntil: until,
            },
          },
        ];
      }
      case 'ExpireWatches': {
        const now = ctx.now.toISOString();
        const ended = [...state.watchUntil].filter(([, until]) => until <= now).map(([f]) => f);
        if (ended.length === 0) return [];
        return [
          {
            type: 'MerchantSubscriptionsRemoved',
            data: { accountId: accountOf(state), feins: ended.sort(), reason: 'expired' },
          },
        ];
      }
      case 'Unsubscribe': {
        const watched = [...new Set(command.feins)].filter((f) => state.feins.has(f));
        if (watched.length === 0) return [];
        return [
          {
            type: 'MerchantSubscriptionsRemoved',
            data: { accountId: accountOf(state, command.accountId), feins: watched },
          },
        ];
      }
      case 'QueueImport': {
        if (state.imports.has(command.importId)) throw conflict(SUBSCRIPTION_DOMAIN_TEXTS.importExists);
        const { type: _, ...data } = command;
        return [
          {
            type: 'SubscriptionImportQueued',
            data: { ...data, accountId: accountOf(state, data.accountId) },
          },
        ];
      }
      case 'StartImport': {
        const status = state.imports.get(command.importId);
        if (!status) throw notFound(SUBSCRIPTION_DOMAIN_TEXTS.importNotFound);
        if (status !== 'queued') return [];
        return [
          {
            type: 'SubscriptionImportStarted',
            data: { accountId: accountOf(state), importId: command.importId },
          },
        ];
      }
      case 'FinishImport': {
        const status = state.imports.get(command.importId);
        if (!status) throw notFound(SUBSCRIPTION_DOMAIN_TEXTS.importNotFound);
        if (status === 'done' || status === 'failed') return [];
        return [
          {
            type: 'SubscriptionImportFinished',
            data: { accountId: accountOf(state), importId: command.importId, ...command.counts },
          },
        ];
      }
      case 'FailImport': {
        const status = state.imports.get(command.importId);
        if (!status) throw notFound(SUBSCRIPTION_DOMAIN_TEXTS.importNotFound);
        if (status === 'done' || status === 'failed') return [];
        return [
          {
            type: 'SubscriptionImportFailed',
            data: { accountId: accountOf(state), importId: command.importId, reason: command.reason },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
