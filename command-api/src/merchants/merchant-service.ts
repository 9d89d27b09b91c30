import { type EventMetadata, type EventStore, invalid, notFound } from '@mrn/platform';
import { accounts } from '../accounts/aggregate.ts';
import { transact, type UnitOfWork } from '../command-handler.ts';
import type { CommandContext } from '../decider.ts';
import { einReservations, merchants, noteRegistry } from './aggregates.ts';
import { MERCHANT_TEXTS, type MerchantCommand } from './merchant.ts';

export const loadMerchant = (store: EventStore, merchantId: string) => merchants.load(store, merchantId);

/**
 * Holds the EIN for `merchantId` within a unit of work. A holder counts until its merchant is
 * archived, so of many concurrent adds exactly one wins and the others get 409 with the winner's id.
 */
export function reserveEin(unit: UnitOfWork, fein: string, merchantId: string) {
  return unit.decide(einReservations, fein, async (state) => ({
    type: 'ReserveEin' as const,
    fein,
    merchantId,
    holderIsLive:
      state.holder !== null &&
      state.holder !== merchantId &&
      (await unit.load(merchants, state.holder)).status !== 'archived',
  }));
}

export const releaseEin = (unit: UnitOfWork, fein: string, merchantId: string) =>
  unit.decide(einReservations, fein, { type: 'ReleaseEin', fein, merchantId });

/** Records which merchant a note belongs to, in the note's own append. */
export const registerNote = (unit: UnitOfWork, noteId: string, merchantId: string) =>
  unit.decide(noteRegistry, noteId, { type: 'RegisterNote', noteId, merchantId });

/** The merchant a note belongs to, from the note's `note-{id}` stream. */
export async function merchantOfNote(deps: { store: EventStore }, noteId: string): Promise<string> {
  const { state } = await noteRegistry.load(deps.store, noteId);
  if (!state.merchantId) throw notFound(MERCHANT_TEXTS.noteNotFound);
  return state.merchantId;
}

/** A platform admin acting for another account names it; it must exist. */
export async function checkProxiedAccount(deps: { store: EventStore }, accountId: string): Promise<void> {
  const { state } = await accounts.load(deps.store, accountId);
  if (state.status !== 'open' || state.isPlatform) throw invalid('proxied_creator: is not a funder account');
}

/**
 * Adds a merchant with its first note. The EIN reservation, the merchant and the note's registry
 * entry are one atomic append: a refusal or a failure anywhere leaves the EIN free and nothing written.
 */
export const addMerchant = (
  deps: { store: EventStore },
  command: Extract<MerchantCommand, { type: 'AddMerchant' }>,
  ctx: CommandContext,
  metadata: EventMetadata,
) =>
  transact(deps, { ctx, metadata }, async (unit) => {
    await reserveEin(unit, command.details.fein, command.merchantId);
    await unit.decide(merchants, command.merchantId, command);
    await registerNote(unit, command.noteId, command.merchantId);
  });

/** Adds a note to a merchant, with its registry entry in the same append. */
export const addNote = (
  deps: { store: EventStore },
  merchantId: string,
  command: Extract<MerchantCommand, { type: 'AddNote' }>,
  ctx: CommandContext,
  metadata: EventMetadata,
) =>
  transact(deps, { ctx, metadata }, async (unit) => {
    await unit.decide(merchants, merchantId, command);
    await registerNote(unit, command.noteId, merchantId);
  });
