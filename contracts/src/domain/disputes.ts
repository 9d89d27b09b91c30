/**
 * Dispute work of platform administrators (core spec §2, issue 13): a business owner's dispute is new
 * until someone takes it (assigned or review started), in review until resolved, and resolved once.
 */
export const DISPUTE_STATUSES = ['new', 'in_review', 'resolved'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const DISPUTE_STATUS_LABELS: Record<DisputeStatus, string> = {
  new: 'New',
  in_review: 'In review',
  resolved: 'Resolved',
};

/**
 * How a dispute ends. The first three change the merchant's record in the same atomic append as the
 * resolution; `rejected` (the record stands as reported) and `no_action` (nothing to change, e.g. no
 * record for the EIN, or the owner withdrew) change nothing and must tell the owner why.
 */
export const DISPUTE_RESOLUTIONS = [
  'dispute_note_added',
  'note_archived',
  'merchant_archived',
  'rejected',
  'no_action',
] as const;
export type DisputeResolution = (typeof DISPUTE_RESOLUTIONS)[number];

/** Resolutions that must carry an explanation for the business owner. */
export const EXPLAINED_RESOLUTIONS: readonly DisputeResolution[] = ['rejected', 'no_action'];
/** Resolutions that change the disputed merchant's record. */
export const MERCHANT_RESOLUTIONS: readonly DisputeResolution[] = [
  'dispute_note_added',
  'note_archived',
  'merchant_archived',
];

/** What staff see when choosing. */
export const DISPUTE_RESOLUTION_LABELS: Record<DisputeResolution, string> = {
  dispute_note_added: 'Add a Merchant Dispute note to the merchant',
  note_archived: 'Archive the disputed note',
  merchant_archived: 'Archive the merchant',
  rejected: 'Reject: the record stands as reported',
  no_action: 'Close without changes',
};

/** How a resolved dispute ended, as the queue and the dispute show it. */
export const DISPUTE_RESOLUTION_OUTCOMES: Record<DisputeResolution, string> = {
  dispute_note_added: 'Merchant Dispute note added',
  note_archived: 'Disputed note archived',
  merchant_archived: 'Merchant archived',
  rejected: 'Rejected: record stands',
  no_action: 'Closed without changes',
};

/** The outcome in plain words, for the business owner's e-mail (never internal comments). */
export const DISPUTE_OUTCOME_TEXTS: Record<DisputeResolution, string> = {
  dispute_note_added:
    'We have added a statement of your dispute to the business record, so that it is taken into account by anyone reviewing it.',
  note_archived: 'We have removed the disputed report from the business record.',
  merchant_archived: 'We have removed the business record from our network.',
  rejected: 'After review, the record remains as reported.',
  no_action: 'We have closed your dispute without changes to any record.',
};

/** Days within which we aim to resolve a dispute. */
export const DISPUTE_TARGET_DAYS = 30;
/** From this many days open a dispute is shown as nearing its target. */
export const DISPUTE_WARNING_DAYS = 25;
export const DISPUTE_COMMENT_MAX = 5000;
export const DISPUTE_EXPLANATION_MAX = 2000;

/** Whole days between submission and `until` (resolution, or now while open). */
export const daysOpen = (createdAt: Date | string, until: Date | string): number =>
  Math.max(0, Math.floor((new Date(until).getTime() - new Date(createdAt).getTime()) / 86_400_000));
