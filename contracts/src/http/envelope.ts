import { z } from '../zod.ts';

/** Every error answer: `errors` is the text shown to the user (specs §8), `fields` names each bad field. */
export const ErrorBody = z.object({
  errors: z.string(),
  fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  request_id: z.string().optional(),
  resource_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Pagination = z.object({
  current_page: z.number().int(),
  per_page: z.number().int(),
  total_pages: z.number().int(),
  total_count: z.number().int(),
});
export type Pagination = z.infer<typeof Pagination>;

/** A successful answer: `data`, and for commands the log `position` to send back as X-Consistent-After. */
export const dataEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({ data, position: z.string().optional() });

export const CONSISTENT_AFTER_HEADER = 'x-consistent-after';
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
