import type { EventOf } from '@mrn/contracts';
import { conflict } from '@mrn/platform';
import { assertNever, type Decider } from '../decider.ts';

/** `note-{id}` names the merchant a note belongs to; written with the note, in the same append. */
export type NoteRegistryEvent = EventOf<'NoteRegistered'>;
export type NoteRegistryState = { merchantId: string | null };
export type NoteRegistryCommand = { type: 'RegisterNote'; noteId: string; merchantId: string };

export const noteRegistryDecider: Decider<NoteRegistryCommand, NoteRegistryState, NoteRegistryEvent> = {
  initialState: () => ({ merchantId: null }),
  evolve(_state, event) {
    switch (event.type) {
      case 'NoteRegistered':
        return { merchantId: event.data.merchantId };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RegisterNote':
        // The same note again is a retried submission; a note id is never reused for another merchant.
        if (state.merchantId === command.merchantId) return [];
        if (state.merchantId !== null) throw conflict('This note belongs to another merchant.');
        return [{ type: 'NoteRegistered', data: { noteId: command.noteId, merchantId: command.merchantId } }];
      default:
        return assertNever(command.type);
    }
  },
};
