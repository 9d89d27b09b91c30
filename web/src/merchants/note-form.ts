import {
  type DEFAULT_SATISFIED_QUICK_NOTES,
  NOTE_CATEGORIES,
  type NoteCategory,
  NoteFields,
  type NoteView,
  SUBMISSION_SOURCES,
  type SubmissionSource,
  selectableCategories,
} from '@mrn/contracts';
import { schemaErrors } from '../forms/validate.ts';
import type { FormErrors } from './merchant-form.ts';

export interface NoteFormValues {
  category: NoteCategory | '';
  note: string;
  submission_source: SubmissionSource | '';
  broker_name: string;
}
export type NoteField = keyof NoteFormValues;

export const NOTE_LABELS: Record<NoteField, string> = {
  category: 'Category',
  note: 'Note',
  submission_source: 'Submission Source',
  broker_name: 'Broker Name',
};

export const BROKER_NAME_MAX = 120;
export const BROKER_NAME_HINT = 'name only, do not add comments';
export const DEFAULT_SATISFIED: NoteCategory = 'Default Satisfied';
export type QuickNote = (typeof DEFAULT_SATISFIED_QUICK_NOTES)[number];

export const emptyNoteValues = (): NoteFormValues => ({
  category: '',
  note: '',
  submission_source: '',
  broker_name: '',
});

const isCategory = (value: string): value is NoteCategory =>
  (NOTE_CATEGORIES as readonly string[]).includes(value);
const isSource = (value: string | null): value is SubmissionSource =>
  value !== null && (SUBMISSION_SOURCES as readonly string[]).includes(value);

export const noteValuesOf = (n: NoteView): NoteFormValues => ({
  category: isCategory(n.category) ? n.category : '',
  note: n.note,
  submission_source: isSource(n.submission_source) ? n.submission_source : '',
  broker_name: n.broker_name ?? '',
});

/**
 * The categories offered: platform administrators get every one; others never Default Satisfied
 * or Merchant Dispute (core spec §5, §6). A note being edited keeps its own category in the list.
 */
export function categoryChoices(
  isPlatformAdmin: boolean,
  current: NoteCategory | '' = '',
  purpose: 'add' | 'edit' = current ? 'edit' : 'add',
): NoteCategory[] {
  const choices = selectableCategories(isPlatformAdmin, purpose);
  return current && !choices.includes(current) ? [current, ...choices] : choices;
}

/** Changing the source clears the broker name (core spec §5). */
export function withSource(values: NoteFormValues, source: SubmissionSource | ''): NoteFormValues {
  return source === values.submission_source
    ? values
    : { ...values, submission_source: source, broker_name: '' };
}

/** A Default Satisfied quick note fills the note; Other leaves the note for the user to write. */
export function withQuickNote(values: NoteFormValues, quick: QuickNote): NoteFormValues {
  return { ...values, note: quick === 'Other' ? '' : quick };
}

/**
 * Note rules of core spec §5 with the server's schema (NoteFields: category and note required, broker
 * name for a broker source); the form adds which categories this user may pick.
 */
export function validateNote(
  values: NoteFormValues,
  allowed: readonly NoteCategory[],
): FormErrors<NoteField> {
  const errors = schemaErrors(NoteFields, noteBody(values), NOTE_LABELS);
  if (!errors.category && values.category && !allowed.includes(values.category))
    errors.category = `${NOTE_LABELS.category} ${values.category} is not available to you`;
  return errors;
}

/** The `note` object of add merchant, add note and update note. */
export function noteBody(values: NoteFormValues) {
  const source = values.submission_source || null;
  return {
    category: (values.category || undefined) as NoteCategory,
    note: values.note.trim(),
    submission_source: source,
    broker_name: source === 'broker' ? values.broker_name.trim() : null,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The optional "Add on Behalf of" funder account id of platform administrators. */
export function validateOnBehalfOf(value: string): string | undefined {
  const id = value.trim();
  return id && !UUID.test(id) ? 'Add on Behalf of must be a funder account id (a uuid)' : undefined;
}
