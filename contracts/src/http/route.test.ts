import { describe, expect, it } from 'vitest';
import { routes } from '../routes/index.ts';
import { READ_MODELS, type RouteSpec } from './route.ts';

describe('the route table', () => {
  it('names, for every query, the read models its answer is made of (X-Consistent-After waits for those only)', () => {
    const queries = Object.entries(routes as Record<string, RouteSpec>).filter(
      ([, r]) => r.service === 'query',
    );
    expect(queries.length).toBeGreaterThan(40);
    for (const [name, route] of queries) {
      expect(Array.isArray(route.readModels), `${name} declares readModels`).toBe(true);
      for (const model of route.readModels ?? []) expect(READ_MODELS, name).toContain(model);
    }
  });
});
