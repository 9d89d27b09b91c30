import {
  ADMIN_ONLY_CATEGORY,
  type EventData,
  type EventOf,
  LOCKED_CATEGORIES,
  type NoteCategory,
  PLATFORM_ONLY_CATEGORY,
  type SubmissionSource,
} from '@mrn/contracts';
import { type Actor, conflict, forbidden, gone, notFound } from '@mrn/platform';
import { assertNever, type CommandContext, type Decider } from '../decider.ts';

export type MerchantEvent =
  | EventOf<'MerchantAdded'>
  | EventOf<'MerchantUpdated'>
  | EventOf<'MerchantArchived'>
  | EventOf<'NoteAdded'>
  | EventOf<'NoteUpdated'>
  | EventOf<'NoteDeletionRequested'>
  | EventOf<'NoteArchived'>;

export type MerchantDetails = Omit<EventData<'MerchantUpdated'>, 'merchantId'>;

export interface NoteContent {
  category: NoteCategory;
  note: string;
  submissionSource: SubmissionSource | null;
  brokerName: string | null;
}

export interface NoteState extends NoteContent {
  noteId: string;
  accountId: string;
  userId: string;
  archived: boolean;
  deletionRequested: boolean;
}

export interface MerchantRecord extends MerchantDetails {
  merchantId: string;
  accountId: string;
  userId: string;
  notes: Map<string, NoteState>;
}

export type MerchantState =
  | { status: 'none' }
  | ({ status: 'live' } & MerchantRecord)
  | ({ status: 'archived'; reason: string } & MerchantRecord);

/** The account and user a record is attributed to: the proxied account when a platform admin acts for it. */
export interface Attribution {
  accountId: string;
  userId: string;
  proxiedCreator: string | null;
}

export type MerchantCommand =
  | {
      type: 'AddMerchant';
      merchantId: string;
      details: MerchantDetails;
      noteId: string;
      note: NoteContent;
      by: Attribution;
    }
  | { type: 'UpdateMerchant'; details: MerchantDetails }
  | { type: 'ArchiveMerchant'; reason: string }
  | { type: 'AddNote'; noteId: string; note: NoteContent; by: Attribution }
  | { type: 'UpdateNote'; noteId: string; note: NoteContent }
  | { type: 'RequestNoteDeletion'; noteId: string; reason: string }
  | { type: 'ArchiveNote'; noteId: string };

export const MERCHANT_TEXTS = {
  notFound: 'Merchant not found.',
  archived: 'This merchant has been deleted.',
  noteNotFound: 'Note not found.',
  categoryNotAllowed: (c: string) => `Only platform administrators may use the category ${c}.`,
  lockedNote: (c: string) => `A note in the category ${c} can only be changed by a platform administrator.`,
  notCreator: 'Only the user who added this note or a platform administrator can edit it.',
  notAuthoringAccount: 'Only members of the funder that added this note can request its deletion.',
  alreadyRequested: 'A deletion request for this note has already been submitted.',
  notAddingAccount: 'Only the funder that added this merchant or a platform administrator can update it.',
  proxyOnlyForAdmins: 'Only platform administrators can add records on behalf of another account.',
} as const;

const actorOf = (ctx: CommandContext): Actor => {
  if (!ctx.actor) throw forbidden();
  return ctx.actor;
};

/**
 * Category rules of core spec §5/§6 for picking a category: Merchant Dispute is for platform admins
 * only; Default Satisfied may be added by anyone but picked while editing only by platform admins.
 */
function checkCategory(category: NoteCategory, actor: Actor, purpose: 'add' | 'edit'): void {
  if (actor.isDmAdmin) return;
  if (category === PLATFORM_ONLY_CATEGORY || (purpose === 'edit' && category === ADMIN_ONLY_CATEGORY)) {
    throw forbidden(MERCHANT_TEXTS.categoryNotAllowed(category));
  }
}

function live(state: MerchantState): Extract<MerchantState, { status: 'live' }> {
  if (state.status === 'none') throw notFound(MERCHANT_TEXTS.notFound);
  if (state.status === 'archived') throw gone(MERCHANT_TEXTS.archived);
  return state;
}

function liveNote(state: MerchantState, noteId: string): { merchant: MerchantRecord; note: NoteState } {
  const merchant = live(state);
  const note = merchant.notes.get(noteId);
  if (!note || note.archived) throw notFound(MERCHANT_TEXTS.noteNotFound);
  return { merchant, note };
}

const sameContent = (a: NoteContent, b: NoteContent) =>
  a.category === b.category &&
  a.note === b.note &&
  a.submissionSource === b.submissionSource &&
  a.brokerName === b.brokerName;

/** Compares the details fields only (the state carries more keys than the command). */
const sameDetails = (current: MerchantDetails, next: MerchantDetails) =>
  (Object.keys(next) as (keyof MerchantDetails)[]).every((k) => current[k] === next[k]);

const noteAdded = (
  merchantId: string,
  noteId: string,
  note: NoteContent,
  by: Attribution,
): MerchantEvent => ({
  type: 'NoteAdded',
  data: {
    merchantId,
    noteId,
    ...note,
    accountId: by.accountId,
    userId: by.userId,
    proxiedCreator: by.proxiedCreator,
  },
});

function pickDetails(d: MerchantDetails): MerchantDetails {
  const { fein, legalName, dba, street1, street2, city, state, businessPhone, businessStartdate, industry } =
    d;
  return { fein, legalName, dba, street1, street2, city, state, businessPhone, businessStartdate, industry };
}

function withNote(state: MerchantState, noteId: string, change: (n: NoteState) => NoteState): MerchantState {
  if (state.status === 'none') return state;
  const note = state.notes.get(noteId);
  if (!note) return state;
  const notes = new Map(state.notes);
  notes.set(noteId, change(note));
  return { ...state, notes };
}

export const merchantDecider: Decider<MerchantCommand, MerchantState, MerchantEvent> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'MerchantAdded': {
        const { merchantId, accountId, userId, ...details } = event.data;
        return { status: 'live', merchantId, accountId, userId, ...pickDetails(details), notes: new Map() };
      }
      case 'MerchantUpdated':
        return state.status === 'none' ? state : { ...state, ...pickDetails(event.data) };
      case 'MerchantArchived':
        return state.status === 'none' ? state : { ...state, status: 'archived', reason: event.data.reason };
      case 'NoteAdded': {
        if (state.status === 'none') return state;
        const { noteId, category, note, submissionSource, brokerName, accountId, userId } = event.data;
        const notes = new Map(state.notes);
        notes.set(noteId, {
          noteId,
          category,
          note,
          submissionSource,
          brokerName,
          accountId,
          userId,
          archived: false,
          deletionRequested: false,
        });
        return { ...state, notes };
      }
      case 'NoteUpdated': {
        const { category, note, submissionSource, brokerName } = event.data;
        return withNote(state, event.data.noteId, (n) => ({
          ...n,
          category,
          note,
          submissionSource,
          brokerName,
        }));
      }
      case 'NoteDeletionRequested':
        return withNote(state, event.data.noteId, (n) => ({ ...n, deletionRequested: true }));
      case 'NoteArchived':
        return withNote(state, event.data.noteId, (n) => ({ ...n, archived: true }));
      default:
        return assertNever(event);
    }
  },

  decide(command, state, ctx) {
    const actor = actorOf(ctx);
    switch (command.type) {
      case 'AddMerchant': {
        // The same id again is a retried submission (Idempotency-Key): nothing new to record.
        if (state.status !== 'none') return [];
        checkAttribution(command.by, actor);
        checkCategory(command.note.category, actor, 'add');
        const { accountId, userId } = command.by;
        return [
          {
            type: 'MerchantAdded',
            data: { merchantId: command.merchantId, ...command.details, accountId, userId },
          },
          noteAdded(command.merchantId, command.noteId, command.note, command.by),
        ];
      }
      case 'UpdateMerchant': {
        const merchant = live(state);
        if (!actor.isDmAdmin && actor.accountId !== merchant.accountId)
          throw forbidden(MERCHANT_TEXTS.notAddingAccount);
        if (sameDetails(merchant, command.details)) return [];
        return [{ type: 'MerchantUpdated', data: { merchantId: merchant.merchantId, ...command.details } }];
      }
      case 'ArchiveMerchant': {
        if (!actor.isDmAdmin) throw forbidden();
        if (state.status === 'archived') return [];
        const merchant = live(state);
        return [
          {
            type: 'MerchantArchived',
            data: { merchantId: merchant.merchantId, fein: merchant.fein, reason: command.reason },
          },
        ];
      }
      case 'AddNote': {
        const merchant = live(state);
        if (merchant.notes.has(command.noteId)) return [];
        checkAttribution(command.by, actor);
        checkCategory(command.note.category, actor, 'add');
        return [noteAdded(merchant.merchantId, command.noteId, command.note, command.by)];
      }
      case 'UpdateNote': {
        const { merchant, note } = liveNote(state, command.noteId);
        if (!actor.isDmAdmin) {
          if (note.userId !== actor.userId) throw forbidden(MERCHANT_TEXTS.notCreator);
          if (note.category === PLATFORM_ONLY_CATEGORY) throw notFound(MERCHANT_TEXTS.noteNotFound);
          if (LOCKED_CATEGORIES.includes(note.category))
            throw forbidden(MERCHANT_TEXTS.lockedNote(note.category));
          checkCategory(command.note.category, actor, 'edit');
        }
        if (sameContent(note, command.note)) return [];
        return [
          {
            type: 'NoteUpdated',
            data: { merchantId: merchant.merchantId, noteId: note.noteId, ...command.note },
          },
        ];
      }
      case 'RequestNoteDeletion': {
        const { merchant, note } = liveNote(state, command.noteId);
        if (actor.isDmAdmin || note.accountId !== actor.accountId)
          throw forbidden(MERCHANT_TEXTS.notAuthoringAccount);
        if (note.deletionRequested) throw conflict(MERCHANT_TEXTS.alreadyRequested);
        return [
          {
            type: 'NoteDeletionRequested',
            data: {
              merchantId: merchant.merchantId,
              noteId: note.noteId,
              reason: command.reason,
              accountId: actor.accountId,
              userId: actor.userId,
            },
          },
        ];
      }
      case 'ArchiveNote': {
        if (!actor.isDmAdmin) throw forbidden();
        if (state.status === 'none') throw notFound(MERCHANT_TEXTS.notFound);
        const note = state.notes.get(command.noteId);
        if (!note) throw notFound(MERCHANT_TEXTS.noteNotFound);
        if (note.archived) return [];
        return [{ type: 'NoteArchived', data: { merchantId: state.merchantId, noteId: note.noteId } }];
      }
      default:
        return assertNever(command);
    }
  },
};

function checkAttribution(by: Attribution, actor: Actor): void {
  if (by.proxiedCreator !== null && !actor.isDmAdmin) throw forbidden(MERCHANT_TEXTS.proxyOnlyForAdmins);
  if (by.proxiedCreator === null && by.accountId !== actor.accountId) throw forbidden();
}
