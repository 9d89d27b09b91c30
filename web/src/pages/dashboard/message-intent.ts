import { Intent } from '@blueprintjs/core';
import type { MessageSeverity } from '@mrn/contracts';

/** Message bar colours (core spec §2): info blue, warning orange, error red, success green. */
export const MESSAGE_INTENT: Record<MessageSeverity, Intent> = {
  info: Intent.PRIMARY,
  warning: Intent.WARNING,
  error: Intent.DANGER,
  success: Intent.SUCCESS,
};
