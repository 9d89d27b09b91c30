import type { ErrorBody } from '@mrn/contracts';

/**
 * The field errors of a 400 answer under one body part (`merchant.fein: is required` under
 * `merchant`), worded with the form's labels: `{ fein: 'EIN or BN is required' }`.
 */
export function serverFieldErrors<F extends string>(
  body: ErrorBody | null | undefined,
  prefix: string,
  labels: Record<F, string>,
): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const { field, message } of body?.fields ?? []) {
    const name = prefix ? (field.startsWith(`${prefix}.`) ? field.slice(prefix.length + 1) : null) : field;
    if (name === null || !(name in labels)) continue;
    const key = name as F;
    // A fragment ("is required") follows the label; a whole sentence ("The current password is not
    // correct.") stands alone.
    errors[key] ??= /^[A-Z]/.test(message) ? message : `${labels[key]} ${message}`;
  }
  return errors;
}

/** Whether a 400 answer named any field the form shows. */
export const hasFieldErrors = (errors: Record<string, unknown>): boolean => Object.keys(errors).length > 0;
