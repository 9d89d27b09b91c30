import { defineConfig } from 'vitest/config';
import { TEST_WORKERS } from './vitest.workers.ts';

export default defineConfig({
  test: {
    globalSetup: ['./vitest.global-setup.ts'],
    maxWorkers: TEST_WORKERS,
    projects: [
      {
        extends: true,
        test: {
          name: 'packages',
          include: [
            'contracts',
            'platform',
            'command-api',
            'projections',
            'query-api',
            'webhook-dispatcher',
            'server',
            'web',
            'billing-test-server',
          ].map((p) => `${p}/src/**/*.test.{ts,tsx}`),
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/src/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
