/** The dispatcher's place in the log (`subscription_checkpoints`). */
export const CHECKPOINT_NAME = 'webhook-dispatcher';
/**
 * The look-ups reader's place in projections' feed of look-ups of watched merchants (read.watched_lookups,
 * issue 31): a position of the search log, judged up to there (intake/watched-lookups.ts).
 */
export const LOOKUPS_CHECKPOINT = 'webhook-lookups';
