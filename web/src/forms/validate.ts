import type { z } from 'zod';

/** Errors of a form by field; a field without an entry is valid. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * Validates what a form would send with the very schema the server parses it with (the route table's),
 * so the browser and the server can never disagree on a rule. Each issue lands on the form field its
 * path names (`fieldOf`: the server's field path → the form's field, e.g. `new_password` → newPassword),
 * worded as the server words it after the field's label: "Legal Name is required". Messages that are
 * whole sentences in the specs ("Code must be 6 digits") are shown as they are.
 */
export function schemaErrors<F extends string>(
  schema: z.ZodType,
  body: unknown,
  labels: Record<F, string>,
  fieldOf: (path: string) => F | undefined = (path) => (path in labels ? (path as F) : undefined),
): FieldErrors<F> {
  const result = schema.safeParse(body);
  if (result.success) return {};
  const errors: FieldErrors<F> = {};
  for (const issue of result.error.issues) {
    const field = fieldOf(issue.path.map(String).join('.'));
    if (!field || errors[field]) continue;
    errors[field] = startsWithCapital(issue.message) ? issue.message : `${labels[field]} ${issue.message}`;
  }
  return errors;
}

const startsWithCapital = (message: string) => /^[A-Z]/.test(message);

/** Each form's own rules (ones only the browser knows) added to the schema's, the schema's first. */
export const withExtra = <F extends string>(
  errors: FieldErrors<F>,
  extra: FieldErrors<F>,
): FieldErrors<F> => ({
  ...extra,
  ...errors,
});
