/** Note categories (core spec §3). Merchant Dispute exists for platform administrators only. */
export const NOTE_CATEGORIES = [
  'Default Account',
  'Suspicious Activity',
  'Slow Pay',
  'Stacking History',
  'Split Payer',
  'Covid-19 Hardship',
  'Criminal History',
  'Default',
  'Other',
  'Default Satisfied',
  'Merchant Dispute',
] as const;
export type NoteCategory = (typeof NOTE_CATEGORIES)[number];

export const PLATFORM_ONLY_CATEGORY: NoteCategory = 'Merchant Dispute';
/**
 * The categories a funder's member may report in (and so a partner API call, made as one): every one
 * but Merchant Dispute.
 */
export const MEMBER_NOTE_CATEGORIES = NOTE_CATEGORIES.filter(
  (c): c is Exclude<NoteCategory, 'Merchant Dispute'> => c !== PLATFORM_ONLY_CATEGORY,
);
/** Only platform administrators may pick it when editing a note (core spec §5); anyone may add a note in it. */
export const ADMIN_ONLY_CATEGORY: NoteCategory = 'Default Satisfied';
/** A note in one of these may only be changed by a platform administrator. */
export const LOCKED_CATEGORIES: readonly NoteCategory[] = [
  'Default Satisfied',
  'Split Payer',
  'Covid-19 Hardship',
];

/** The categories a user may choose for a new or edited note. */
export const selectableCategories = (
  isPlatformAdmin: boolean,
  purpose: 'add' | 'edit' = 'add',
): NoteCategory[] =>
  NOTE_CATEGORIES.filter(
    (c) =>
      isPlatformAdmin || (c !== PLATFORM_ONLY_CATEGORY && !(purpose === 'edit' && c === ADMIN_ONLY_CATEGORY)),
  );

export const DEFAULT_SATISFIED_QUICK_NOTES = [
  'Paid in Full',
  'Settled for less than originally owed',
  'Other',
] as const;

export const SUBMISSION_SOURCES = ['in-house', 'broker'] as const;
export type SubmissionSource = (typeof SUBMISSION_SOURCES)[number];
export const SUBMISSION_SOURCE_LABELS: Record<SubmissionSource, string> = {
  'in-house': 'In-house/Retail',
  broker: 'Broker/ISO',
};

export const NOTE_MAX = 5000;
export const KEYWORD_MIN = 2;
export const SEARCH_HISTORY_MONTHS = 6;
export const ADMIN_NOTES_PAGE_SIZE = 200;
export const PAGE_SIZES = [25, 50, 100] as const;
export const REPORTED_PAGE_SIZES = [10, 25, 50, 100] as const;
