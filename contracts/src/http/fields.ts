import { z } from 'zod';

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
