import { resolve } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { TEST_WORKERS } from './vitest.workers.ts';

// Every test file runs in a new process, which compiled the same dependencies again (Stripe, Fastify,
// Playwright, zod…): Node's on-disk compile cache lets the later ones skip that. Workers inherit it.
process.env.NODE_COMPILE_CACHE ??= resolve(import.meta.dirname, 'node_modules/.cache/node-compile-cache');
// The run's folder of statements sent (server/src/architecture/testing/sql-capture.ts), inherited by workers.
process.env.MRN_SQL_CAPTURE_RUN ??= `${Date.now()}-${process.pid}`;
/** Runs after every other project: it reads the SQL they sent. */
const AFTER_ALL = ['server/src/architecture/*.after.test.ts'];

/**
 * command-api's decider tests (given/when/then) and the pure code beside them, named one by one: its
 * feature folders (`merchants/`, `accounts/`…) also hold tests that start a database, which must not
 * share a worker's modules. A new pure test there runs isolated until it is added here.
 */
const COMMAND_API_UNIT = [
  'accounts/{account,account-admin,account-contribution,account-watch,contribution-mail}',
  'app-settings/app-settings',
  'billing/account-billing',
  'disputes/dispute',
  'merchant-subscriptions/{search-watch,subscriptions}',
  'merchants/{ein-reservation,merchant}',
  'users/{api-token-reservation,email-reservation,user,user-admin,user-api-access,user-credentials,user-guards,user-sessions}',
].map((tests) => `command-api/src/${tests}.test.ts`);

/**
 * Test files with no database, server, browser or global state of their own (pure functions, deciders,
 * the web app's logic): they share their worker's modules (`isolate: false`), so React, Blueprint and the
 * contracts are loaded once per worker instead of once per file. A file that changes something global
 * (a stubbed global, an environment variable, a timer) must undo it in `afterEach`, or live elsewhere.
 */
const UNIT = ['contracts/src/**/*.test.ts', ...COMMAND_API_UNIT, 'web/src/**/*.test.ts'];
/** Timed against the clock (100,000 rows in 500 ms): run alone in a fresh worker, as before. */
const UNIT_TIMED = ['web/src/merchant-subscriptions/import-results.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['./vitest.global-setup.ts'],
    // The default (or --reporter) output, then the slowest files (./vitest.slowest-files.ts).
    reporters: ['default', './vitest.slowest-files.ts'],
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
          exclude: [...configDefaults.exclude, ...UNIT, ...AFTER_ALL],
          setupFiles: ['./vitest.sql-capture.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          exclude: [...configDefaults.exclude, ...UNIT_TIMED],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: UNIT_TIMED,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'after all',
          include: AFTER_ALL,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
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
