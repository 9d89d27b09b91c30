import type { NoteFormValues } from './note-form.ts';

/**
 * A note typed on Add Merchant for an EIN that turned out to exist (someone added it meanwhile) goes
 * along to that merchant's page in the navigation's state, where Add Note opens with it.
 */
export interface DraftNoteState {
  draftNote: NoteFormValues;
}

export const draftNoteState = (note: NoteFormValues): DraftNoteState | undefined =>
  note.note.trim() || note.category ? { draftNote: note } : undefined;

export function draftNoteOf(state: unknown): NoteFormValues | undefined {
  const draft = (state as Partial<DraftNoteState> | null)?.draftNote;
  return draft && typeof draft === 'object' ? draft : undefined;
}
