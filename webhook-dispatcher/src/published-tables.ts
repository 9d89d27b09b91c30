import type { KeptCopy, PublishedTable } from '@mrn/platform';

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

/**
 * Why the dispatcher keeps its own copies rather than reading projections' read models (issue 33). It
 * matches each event against the state as of that event: its copies are written from the log by its own
 * intake, in the transaction that moves its checkpoint, so a merchant added and watched in one request,
 * an account downgraded just before a note, or a watch that ended yesterday are judged exactly as the
 * log orders them. A read model is a later or earlier state (its projector runs at its own pace, and a
 * halted or rebuilding one would hold every webhook back or send on stale state). The copies are small
 * (the columns a notification needs), and only the dispatcher writes them.
 */
export const keptCopies: readonly KeptCopy[] = [
  {
    table: 'webhook_accounts',
    of: "each funder's name, notification e-mail, webhook URL, plan, thresholds and archive (read.accounts)",
    why: 'who is told, where, and whether its plan lets it be told, as of each event',
  },
  {
    table: 'webhook_watches',
    of: "each funder's watched EINs and when a search-made watch ends (read.merchant_subscriptions)",
    why: 'whether a funder watched the EIN when the event happened (a watch started or ended in the same batch counts in log order)',
  },
  {
    table: 'webhook_merchants',
    of: "each merchant's EIN and name (read.merchants)",
    why: "a note's or a signal's merchant, named in the payload, as of the event (a renamed or deleted merchant keeps the name it had)",
  },
];
