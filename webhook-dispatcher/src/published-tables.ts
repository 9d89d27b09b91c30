import type { PublishedTable } from '@mrn/platform';

/**
 * The dispatcher's tables other packages read (issue 22): only the dispatcher writes them; see
 * platform/src/published-tables.ts and server/src/architecture/table-ownership.test.ts.
 */
export const publishedTables: readonly PublishedTable[] = [
  {
    table: 'webhook_secrets',
    readers: ['query-api'],
    why: "GET of an account shows its admins the current signing secret (made by the dispatcher when it first sees the funder); rotations are the dispatcher's own route",
  },
];
