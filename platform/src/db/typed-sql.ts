import { createSqlTag, type FragmentSqlToken, FragmentToken, type QuerySqlToken } from '@slonik/sql-tag';
import type { z } from 'zod';
import type { Queryable } from '../db.ts';

/**
 * Slonik's `sql` tag (`@slonik/sql-tag`, not slonik's pool) for statements with typed rows, run through
 * our own pg pools and clients (issue 22 item 9, DESIGN §9):
 *
 *   const Checkpoint = z.object({ position: z.string() });
 *   const row = await maybeOne(db, sql.type(Checkpoint)`select position from subscription_checkpoints where name = ${name}`);
 *
 * Every interpolated value is bound as a parameter (never spliced into the text); arrays go through
 * `sql.array(values, 'text')`, JSON through `sql.jsonb(value)`, statements built from pieces through
 * `sql.fragment`, and `sql.prepared(name, schema)` names the statement so each connection plans it once.
 * Rows are checked against the token's zod schema and come back as its output type.
 *
 * Not used on the hot paths (event-store appends and log reads, search): there plain pg stays, for the
 * figures in bench/src/slonik-bench.ts and the README.
 */
export const sql = createSqlTag();

/** A statement whose rows are described by a zod schema. */
export type TypedQuery<S extends z.ZodType = z.ZodType> = QuerySqlToken<S>;
/** The row type a typed query returns. */
export type RowOf<Q> = Q extends QuerySqlToken<infer S extends z.ZodType> ? z.output<S> : never;
/** A statement whose rows (if any) are not read: `sql.fragment` or any typed query. */
export type Statement = FragmentSqlToken | QuerySqlToken;

/**
 * An integer written into the statement's text, not bound: for a `limit` that must be part of the plan
 * (with `limit $n` Postgres judged the generic plan costly and planned such statements on every call).
 * Anything but a safe integer is refused, so no text can get in this way.
 */
export function integerLiteral(n: number): FragmentSqlToken {
  if (!Number.isSafeInteger(n)) throw new TypeError(`integerLiteral takes a safe integer, got ${String(n)}`);
  return Object.freeze({ sql: String(n), type: FragmentToken, values: [] });
}

/** A typed statement failed for a reason of its own (not the database's): says which statement. */
export class TypedQueryError extends Error {
  constructor(
    message: string,
    /** The statement's name, or the start of its text. */
    readonly query: string,
  ) {
    super(message);
    this.name = 'TypedQueryError';
  }
}

/** A row that the statement's schema refuses: the statement, the row's index and zod's issues. */
export class RowSchemaError extends TypedQueryError {
  constructor(
    query: string,
    readonly rowIndex: number,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super(`Query ${query}: row ${rowIndex} does not match its schema: ${formatIssues(issues)}`, query);
    this.name = 'RowSchemaError';
  }
}

/** `one` got no row or several, `maybeOne` several. */
export class RowCountError extends TypedQueryError {
  constructor(
    query: string,
    readonly expected: 'one' | 'at most one',
    readonly actual: number,
  ) {
    super(`Query ${query}: expected ${expected} row, got ${actual}`, query);
    this.name = 'RowCountError';
  }
}

/** All rows, each checked against the statement's schema. */
export async function many<S extends z.ZodType>(
  db: Queryable,
  query: QuerySqlToken<S>,
): Promise<z.output<S>[]> {
  const { rows } = await db.query(toPg(query));
  return parseRows(query, rows);
}

/** The only row; none or several is an error. */
export async function one<S extends z.ZodType>(db: Queryable, query: QuerySqlToken<S>): Promise<z.output<S>> {
  const { rows } = await db.query(toPg(query));
  if (rows.length !== 1) throw new RowCountError(describeQuery(query), 'one', rows.length);
  return parseRow(query, rows[0], 0);
}

/** The row, or undefined when there is none; several is an error. */
export async function maybeOne<S extends z.ZodType>(
  db: Queryable,
  query: QuerySqlToken<S>,
): Promise<z.output<S> | undefined> {
  const { rows } = await db.query(toPg(query));
  if (rows.length > 1) throw new RowCountError(describeQuery(query), 'at most one', rows.length);
  return rows.length === 0 ? undefined : parseRow(query, rows[0], 0);
}

/** Runs a statement for its effect: how many rows it touched (pg's rowCount; 0 when it reports none). */
export async function exec(db: Queryable, statement: Statement): Promise<number> {
  const { rowCount } = await db.query(toPg(statement));
  return rowCount ?? 0;
}

/** The pg query config of a token: slonik's `$slonik_N` placeholders as `$N`, its name when prepared. */
export function toPg(statement: Statement): { name?: string; text: string; values: unknown[] } {
  const text = pgText(statement.sql);
  // slonik freezes its tokens and their values; pg only reads them, but its types want a mutable array.
  const values = statement.values as unknown[];
  const name = 'name' in statement ? statement.name : undefined;
  return name ? { name, text, values } : { text, values };
}

// Statements are written once at their call site, so their texts are few: each is rewritten once.
const PLACEHOLDER = /\$slonik_(\d+)/g;
const texts = new Map<string, string>();
const MAX_TEXTS = 2000;

function pgText(slonikSql: string): string {
  let text = texts.get(slonikSql);
  if (text === undefined) {
    text = slonikSql.replace(PLACEHOLDER, '$$$1');
    // A text built from changing identifiers would grow the map without end: start over instead.
    if (texts.size >= MAX_TEXTS) texts.clear();
    texts.set(slonikSql, text);
  }
  return text;
}

function parseRows<S extends z.ZodType>(query: QuerySqlToken<S>, rows: unknown[]): z.output<S>[] {
  const out = new Array<z.output<S>>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = parseRow(query, rows[i], i);
  return out;
}

function parseRow<S extends z.ZodType>(query: QuerySqlToken<S>, row: unknown, index: number): z.output<S> {
  const result = query.parser.safeParse(row);
  if (!result.success) throw new RowSchemaError(describeQuery(query), index, result.error.issues);
  return result.data;
}

/** How an error names a statement: its prepared name, or the start of its text on one line. */
export function describeQuery(statement: Statement): string {
  if ('name' in statement && statement.name) return `"${statement.name}"`;
  const oneLine = pgText(statement.sql).replace(/\s+/g, ' ').trim();
  return `"${oneLine.length > 120 ? `${oneLine.slice(0, 117)}...` : oneLine}"`;
}

function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : '(row)'}: ${i.message}`)
    .join('; ')
    .concat(issues.length > 5 ? `; and ${issues.length - 5} more` : '');
}
