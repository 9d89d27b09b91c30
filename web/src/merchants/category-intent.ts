import { Intent } from '@blueprintjs/core';

const DANGER = new Set(['Default Account', 'Default', 'Suspicious Activity', 'Criminal History']);
const WARNING = new Set(['Slow Pay', 'Stacking History', 'Split Payer', 'Covid-19 Hardship']);

/** Tag colour of a note category: defaults and fraud red, payment trouble orange, resolved green. */
export function categoryIntent(category: string | null | undefined): Intent {
  if (!category) return Intent.NONE;
  if (DANGER.has(category)) return Intent.DANGER;
  if (WARNING.has(category)) return Intent.WARNING;
  if (category === 'Default Satisfied') return Intent.SUCCESS;
  if (category === 'Merchant Dispute') return Intent.PRIMARY;
  return Intent.NONE;
}
