/**
 * How many test files run at once. They spend most of their time waiting on PostgreSQL and Chromium
 * (other processes): vitest's default of one worker per core but one (a single worker on a 2-core
 * machine) left the CPUs half idle. With TEST_DATABASE_URL (one server for everything) files run one at
 * a time, since they would share its transaction horizon (vitest.global-setup.ts). MRN_TEST_WORKERS
 * overrides both.
 */
export const TEST_WORKERS = Number(process.env.MRN_TEST_WORKERS ?? (process.env.TEST_DATABASE_URL ? 1 : 3));
