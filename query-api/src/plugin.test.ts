import { routes } from '@mrn/contracts';
import { describe, expect, it } from 'vitest';
import { queryHandlers, queryRoutes } from './plugin.ts';

describe('query-api route table', () => {
  it('has a handler for every query route declared in contracts, and no handler without a route', () => {
    const handlers = queryHandlers({} as Parameters<typeof queryHandlers>[0]);
    const declared = Object.entries(routes)
      .filter(([, r]) => r.service === 'query')
      .map(([name]) => name)
      .sort();
    expect(Object.keys(queryRoutes).sort()).toEqual(declared);
    expect(Object.keys(handlers).sort()).toEqual(declared);
  });
});
