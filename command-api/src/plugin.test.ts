import { routes } from '@mrn/contracts';
import { describe, expect, it } from 'vitest';
import { commandHandlers, commandRoutes } from './plugin.ts';

describe('command-api route table', () => {
  it('has a handler for every command route declared in contracts, and no handler without a route', () => {
    // Handlers are built without touching their dependencies, so placeholders suffice here.
    const handlers = commandHandlers({} as Parameters<typeof commandHandlers>[0]);
    const declared = Object.entries(routes)
      .filter(([, r]) => r.service === 'command')
      .map(([name]) => name)
      .sort();
    expect(Object.keys(commandRoutes).sort()).toEqual(declared);
    expect(Object.keys(handlers).sort()).toEqual(declared);
  });
});
