import { z } from '../zod.ts';

// Field builders whose messages are the specs' wording ("is required"), so a 400 reads
// "auth.email: is required" and the browser form can show the same words.
const requiredMessage = (iss: { input?: unknown }) =>
  iss.input === undefined ? 'is required' : 'must be text';

export const requiredText = (max: number) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`);

export const optionalText = (max: number) =>
  z
    .string({ error: 'must be text' })
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (value: string) => EMAIL.test(value);

export const email = (max = 64) =>
  requiredText(max).pipe(z.string().regex(EMAIL, 'is not a valid email address'));

/** Passwords are never trimmed: spaces are part of them. */
export const password = (max: number) =>
  z.string({ error: requiredMessage }).min(1, 'is required').max(max, `must be at most ${max} characters`);

export const uuid = () => z.uuid('must be a valid id');

export const idParams = z.object({ id: uuid() });

/** A list's page, page size (one of `sizes`) and search box, as every paged list takes them. */
export const pageQuery = (sizes: readonly number[], fallback: number) =>
  z.object({
    page: z.coerce
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be 1 or more')
      .default(1),
    per_page: z.coerce
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .refine((n) => sizes.includes(n), `must be one of ${sizes.join(', ')}`)
      .default(fallback),
    search: z.string().trim().max(200, 'must be at most 200 characters').optional(),
  });

export const DATE_YEARS = { min: 1800, max: 2100 } as const;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Why a `YYYY-MM-DD` text is not a date we store, or null: 2023-02-31 is refused, not rolled over. */
export function dateProblem(value: string): string | null {
  const m = ISO_DATE.exec(value);
  if (!m) return 'must be a date as YYYY-MM-DD';
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < DATE_YEARS.min || year > DATE_YEARS.max) {
    return `must be between ${DATE_YEARS.min} and ${DATE_YEARS.max}`;
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? null : 'is not a real calendar date';
}

/**
 * An optional calendar date. Every date field of every route uses it: a date the projections cannot
 * store must never become an event (it would stop the read model that applies it).
 */
export const optionalDate = () =>
  z
    .string({ error: 'must be a date' })
    .trim()
    .superRefine((value, ctx) => {
      const problem = value === '' ? null : dateProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .nullish()
    .transform((v) => v || null);

/** A TOTP secret as otplib makes it: base32 (RFC 4648), optionally padded. */
export const base32Secret = () =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(16, 'must be at least 16 characters')
    .max(128, 'must be at most 128 characters')
    .regex(/^[A-Z2-7]+=*$/i, 'must be base32 (letters A–Z and digits 2–7)');
