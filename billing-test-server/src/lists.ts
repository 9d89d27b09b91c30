import type Stripe from 'stripe';
import { invalidRequest, referenceMissing } from './errors.ts';
import { optionalInteger, optionalString, type Params } from './form.ts';

export const PAGE_PARAMS = ['limit', 'starting_after', 'ending_before', 'expand'] as const;

/**
 * Stripe's cursor pagination: newest first (objects made in the same second: the later one first),
 * `limit` 1–100 (default 10), `starting_after` / `ending_before` an id of the list.
 */
export function paginate<T extends { id: string; created: number }>(
  items: readonly T[],
  params: Params,
  url: string,
): Stripe.ApiList<T> {
  const limit = optionalInteger(params, 'limit') ?? 10;
  if (limit < 1) throw invalidRequest('This value must be greater than or equal to 1.', 'limit');
  if (limit > 100) throw invalidRequest('This value must be less than or equal to 100.', 'limit');
  const ordered = items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => b.item.created - a.item.created || b.index - a.index)
    .map((x) => x.item);
  const position = (param: string, id: string) => {
    const i = ordered.findIndex((x) => x.id === id);
    if (i < 0) throw referenceMissing('object', id, param);
    return i;
  };
  const after = optionalString(params, 'starting_after');
  const before = optionalString(params, 'ending_before');
  if (before) {
    const end = position('ending_before', before);
    const start = Math.max(0, end - limit);
    return { object: 'list', data: ordered.slice(start, end), has_more: start > 0, url };
  }
  const start = after ? position('starting_after', after) + 1 : 0;
  return {
    object: 'list',
    data: ordered.slice(start, start + limit),
    has_more: start + limit < ordered.length,
    url,
  };
}
