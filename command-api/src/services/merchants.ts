import { streams } from '@mrn/contracts';
import { type EventMetadata, type EventStore, invalid, notFound } from '@mrn/platform';
import { executeCommand, loadAggregate } from '../command-handler.ts';
import type { CommandContext } from '../domain/decider.ts';
import { einDecider } from '../domain/merchant/ein-reservation.ts';
import { type MerchantCommand, merchantDecider } from '../domain/merchant/merchant.ts';
import { loadAccount } from './accounts.ts';

export const loadMerchant = (store: EventStore, merchantId: string) =>
  loadAggregate(store, merchantDecider, streams.merchant(merchantId));

/**
 * Holds the EIN for `merchantId`. A holder counts until its merchant is archived (a holder whose
 * add is still in flight counts too), so of many concurrent adds exactly one wins and the others
 * get 409 with the winner's id.
 */
export function reserveEin(
  deps: { store: EventStore },
  fein: string,
  merchantId: string,
  ctx: CommandContext,
  metadata: EventMetadata,
) {
  return executeCommand(
    deps,
    einDecider,
    streams.ein(fein),
    async (state) => ({
      type: 'ReserveEin' as const,
      fein,
      merchantId,
      holderIsLive:
        state.holder !== null && (await loadMerchant(deps.store, state.holder)).state.status !== 'archived',
    }),
    ctx,
    metadata,
  );
}

export function releaseEin(
  deps: { store: EventStore },
  fein: string,
  merchantId: string,
  ctx: CommandContext,
  metadata: EventMetadata,
) {
  return executeCommand(
    deps,
    einDecider,
    streams.ein(fein),
    { type: 'ReleaseEin', fein, merchantId },
    ctx,
    metadata,
  );
}

export function runMerchantCommand(
  deps: { store: EventStore },
  merchantId: string,
  command: MerchantCommand,
  ctx: CommandContext,
  metadata: EventMetadata,
) {
  return executeCommand(deps, merchantDecider, streams.merchant(merchantId), command, ctx, metadata);
}

/** The merchant a note belongs to, found in the log (see migration 0002_note_lookup). */
export async function merchantOfNote(
  deps: { store: EventStore; pool: import('@mrn/platform').Pool },
  noteId: string,
): Promise<string> {
  const { rows } = await deps.pool.query<{ merchant_id: string }>(
    `select data ->> 'merchantId' as merchant_id from events where type = 'NoteAdded' and data ->> 'noteId' = $1 limit 1`,
    [noteId],
  );
  const merchantId = rows[0]?.merchant_id;
  if (!merchantId) throw notFound('Note not found.');
  return merchantId;
}

/** A platform admin acting for another account names it; it must exist. */
export async function checkProxiedAccount(deps: { store: EventStore }, accountId: string): Promise<void> {
  const { state } = await loadAccount(deps, accountId);
  if (state.status !== 'open' || state.isPlatform) throw invalid('proxied_creator: is not a funder account');
}
