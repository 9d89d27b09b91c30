/** The dispatcher's place in the log (`subscription_checkpoints`). */
export const CHECKPOINT_NAME = 'webhook-dispatcher';
