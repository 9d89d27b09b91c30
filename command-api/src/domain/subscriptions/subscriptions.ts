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
  initialState: () => ({ accountId: null, feins: new Set(), imports: new Map() }),
  evolve(state, event) {
    const accountId = state.accountId ?? event.data.accountId;
    switch (event.type) {
      case 'MerchantSubscriptionsAdded': {
        const feins = new Set(state.feins);
        for (const f of event.data.feins) feins.add(f);
        return { ...state, accountId, feins };
      }
      case 'MerchantSubscriptionsRemoved': {
        const feins = new Set(state.feins);
        for (const f of event.data.feins) feins.delete(f);
        return { ...state, accountId, feins };
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
  decide(command, state) {
    switch (command.type) {
      case 'Subscribe': {
        // Only EINs not watched yet, each once: subscribing again changes nothing.
        const fresh = [...new Set(command.feins)].filter((f) => !state.feins.has(f));
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
