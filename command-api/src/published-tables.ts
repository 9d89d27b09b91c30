import type { PublishedTable } from '@mrn/platform';

/**
 * command-api's tables other packages read (issue 22): only command-api writes them; see
 * platform/src/published-tables.ts and server/src/architecture/table-ownership.test.ts.
 */
export const publishedTables: readonly PublishedTable[] = [
  {
    table: 'auth_sessions',
    readers: ['platform'],
    why: "the session check of every request (platform/src/http/authenticate.ts): a session's revocation, expiry and kind",
  },
];
