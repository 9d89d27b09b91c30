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

/**
 * A table a package keeps as its own copy of state another package also keeps (issue 33): the copy is the
 * contract, not the other's table, and says why.
 */
export interface KeptCopy {
  /** The copy, owned by the package that declares it. */
  table: string;
  /** What it copies (the facts, and the other's table that holds them too). */
  of: string;
  why: string;
}

/** platform's tables read elsewhere. */
export const publishedTables: readonly PublishedTable[] = [];
