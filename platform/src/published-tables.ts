/**
 * A table its owning package offers to named readers (issue 22, DESIGN §2): a read model made for
 * them, declared and reviewed where the table is created. Readers only read it; only the owner writes.
 * Each owning package lists its own in `<pkg>/src/published-tables.ts` as `publishedTables`;
 * server/src/architecture/table-ownership.test.ts fails on SQL over a table neither owned nor published.
 */
export interface PublishedTable {
  /** As its migration names it, schema-qualified where it has a schema (`read.users`). */
  table: string;
  /** Packages that may read it. */
  readers: readonly string[];
  /** What they read it for. */
  why: string;
}

/** platform's tables read elsewhere. */
export const publishedTables: readonly PublishedTable[] = [];
