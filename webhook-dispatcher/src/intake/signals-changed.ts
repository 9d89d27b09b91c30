import { createHash } from 'node:crypto';
import {
  type CountedNote,
  type EventOf,
  parseTypedEvent,
  SIGNAL_GROUP_LABELS,
  type Signals,
  type SignalsChangedWebhookData,
  signalChange,
  signalKindOf,
  signalsFrom,
  summaryOf,
} from '@mrn/contracts';
import type { RecordedEvent } from '@mrn/platform';

/** Reads a stream from its start: the event store, as every reader of the log has it. */
export type StreamReader = (streamId: string) => AsyncIterable<RecordedEvent>;

interface TrackedNote extends CountedNote {
  archived: boolean;
}

/**
 * A watched merchant's live notes as they stood before and after a note event, folded from the
 * merchant's own stream up to that event: the dispatcher keeps no copy of the notes (a copy would need
 * every note ever written to be right), and a stream holds one merchant's few events.
 */
async function notesAround(
  read: StreamReader,
  e: RecordedEvent,
  merchantId: string,
): Promise<{ before: CountedNote[]; after: CountedNote[]; owner: string | null }> {
  const notes = new Map<string, TrackedNote>();
  const live = () => [...notes.values()].filter((n) => !n.archived);
  let before: CountedNote[] = [];
  for await (const raw of read(`merchant-${merchantId}`)) {
    if (raw.revision > e.revision) break;
    if (raw.revision === e.revision) before = live();
    if (!NOTE_TYPES.has(raw.type)) continue;
    const s = parseTypedEvent(raw);
    switch (s.type) {
      case 'NoteAdded':
        notes.set(s.data.noteId, {
          kind: signalKindOf(s.data.category),
          accountId: s.data.accountId,
          at: s.recordedAt.getTime(),
          archived: false,
        });
        break;
      case 'NoteUpdated': {
        const n = notes.get(s.data.noteId);
        if (n) n.kind = signalKindOf(s.data.category);
        break;
      }
      case 'NoteArchived': {
        const n = notes.get(s.data.noteId);
        if (n) n.archived = true;
        break;
      }
    }
  }
  const noteId = (e.data as { noteId: string }).noteId;
  return { before, after: live(), owner: notes.get(noteId)?.accountId ?? null };
}

/** The merchant events that change what its notes count for. */
const NOTE_TYPES = new Set(['NoteAdded', 'NoteUpdated', 'NoteArchived']);

const withoutDisputes = ({ disputes: _d, ...signals }: Signals): Omit<Signals, 'disputes'> => signals;

export interface SignalsChangedNotice {
  /** The outbox rows' event id: one per note event, apart from the note's own notification. */
  key: string;
  /** The note's funder: never told of its own note. */
  owner: string | null;
  data: Omit<SignalsChangedWebhookData, 'merchant_name' | 'merchant_url'>;
}

/**
 * Whether a note added or edited on a watched merchant gave it a group it did not have, or a reporting
 * funder more (issue 32): what watchers are told, with the signals before and after as of the note.
 */
export async function signalsChangedBy(
  read: StreamReader,
  e: EventOf<'NoteAdded'> | EventOf<'NoteUpdated'>,
  raw: RecordedEvent,
  fein: string,
): Promise<SignalsChangedNotice | null> {
  const { before, after, owner } = await notesAround(read, raw, e.data.merchantId);
  // A merchant's first report is told as it is (merchant.added, merchant.note_added): signals change
  // from what a merchant already had.
  if (!before.some((n) => n.kind !== null && n.kind !== 'satisfied')) return null;
  const change = signalChange(before, after);
  if (change.newGroups.length === 0 && !change.newFunder) return null;
  const none = { open: 0, resolved: 0 };
  return {
    key: signalsKey(raw.id),
    owner,
    data: {
      merchant_ein: fein,
      action: 'Signals Changed',
      new_categories: change.newGroups.map((g) => SIGNAL_GROUP_LABELS[g]),
      new_funder: change.newFunder,
      before: withoutDisputes(signalsFrom(summaryOf(before), none, raw.recordedAt)),
      after: withoutDisputes(signalsFrom(summaryOf(after), none, raw.recordedAt)),
    },
  };
}

/** A uuid of its own per note event, so the note's notification and this one are each sent once. */
function signalsKey(eventId: string): string {
  const h = createHash('sha256').update(`merchant.signals_changed:${eventId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
