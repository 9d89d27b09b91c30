import { uuid } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { z } from '../zod.ts';

// Account analytics (accounts spec §2 "Account analytics", §3 "widget results", §7 "Dashboards"): a
// member sees their own account's figures, platform admins any account's (or, without account_id, the
// whole network's); anyone else is refused.

/** The analytics window (accounts spec §9). */
export const ANALYTICS_DAYS = 30;

export const ANALYTICS_TEXTS = {
  otherAccount: "You may only see your own account's analytics.",
} as const;

const analyticsQuery = z.object({
  days: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(365, 'must be at most 365')
    .default(ANALYTICS_DAYS),
  account_id: uuid().optional(),
});

/** Keys of the hits-by-category figures, and the note categories counted under each. */
export const HIT_CATEGORY_KEYS = {
  suspicious_activity: ['Suspicious Activity'],
  slow_pay: ['Slow Pay'],
  split_pay: ['Split Payer'],
  stacking_history: ['Stacking History'],
  criminal_history: ['Criminal History'],
  covid_hardship: ['Covid-19 Hardship'],
  default: ['Default', 'Default Account'],
  other: ['Other', 'Merchant Dispute'],
  default_satisfied: ['Default Satisfied'],
} as const;
export type HitCategoryKey = keyof typeof HIT_CATEGORY_KEYS;

const hitShape = Object.fromEntries(
  Object.keys(HIT_CATEGORY_KEYS).flatMap((k) => [
    [`total_${k}`, z.number().int()],
    [`percent_${k}`, z.number()],
  ]),
) as Record<`total_${HitCategoryKey}` | `percent_${HitCategoryKey}`, z.ZodNumber>;

export const searchesByDay = route({
  method: 'GET',
  path: '/api/widgets/searches_by_day',
  service: 'query',
  access: 'member',
  query: analyticsQuery,
  readModels: ['analytics', 'analytics_searches'],
  response: z.object({
    data: z.array(
      z.object({
        daily_search_date: z.string(),
        total_api_searches: z.number().int(),
        total_web_searches: z.number().int(),
        total_hits: z.number().int(),
      }),
    ),
  }),
  action: 'retrieve searches by day',
});

export const additionsByDay = route({
  method: 'GET',
  path: '/api/widgets/additions_by_day',
  service: 'query',
  access: 'member',
  query: analyticsQuery,
  readModels: ['analytics', 'analytics_searches'],
  response: z.object({
    data: z.array(
      z.object({
        daily_addition_date: z.string(),
        total_merchants: z.number().int(),
        total_notes: z.number().int(),
      }),
    ),
  }),
  action: 'retrieve additions by day',
});

export const searchesBySource = route({
  method: 'GET',
  path: '/api/widgets/searches_by_source',
  service: 'query',
  access: 'member',
  query: analyticsQuery,
  readModels: ['analytics_searches'],
  response: z.object({
    data: z.object({
      total_api: z.number().int(),
      percent_api: z.number(),
      total_web: z.number().int(),
      percent_web: z.number(),
    }),
  }),
  action: 'retrieve searches by source',
});

export const hitsByCategory = route({
  method: 'GET',
  path: '/api/widgets/hits_by_category',
  service: 'query',
  access: 'member',
  query: analyticsQuery,
  readModels: ['analytics_searches'],
  response: z.object({ data: z.object(hitShape) }),
  action: 'retrieve hits by category',
});
