import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { isTestCode, PACKAGES, ROOT } from './packages.ts';

/**
 * The statements the test suite's servers send, and which package's code sent each (issue 33): the
 * table-ownership check then reads the SQL as PostgreSQL got it, parts assembled at run time included,
 * where the static check reads each source's literals. Every test file of the run records into a folder
 * of the run (`captureDir`); a test that runs after the others reads them all (sql-sent.after.test.ts).
 */

/** Where the run's statements are kept: one folder per run, named by the environment variable. */
export const CAPTURE_ROOT = join(ROOT, 'node_modules', '.cache', 'mrn-sql-capture');
export const RUN_VARIABLE = 'MRN_SQL_CAPTURE_RUN';

export const captureDir = (run = process.env[RUN_VARIABLE]): string | undefined =>
  run ? join(CAPTURE_ROOT, run) : undefined;

/** A new run's folder name, and the folders of runs older than a day gone (a run cut short leaves one). */
export function startCaptureRun(): string {
  const run = `${Date.now()}-${process.pid}`;
  if (existsSync(CAPTURE_ROOT)) {
    for (const old of readdirSync(CAPTURE_ROOT)) {
      const path = join(CAPTURE_ROOT, old);
      if (Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
    }
  }
  return run;
}

export interface SentStatement {
  /** The package whose production code wrote the statement, and the file. */
  pkg: string;
  file: string;
  text: string;
}

/**
 * Files that only pass a caller's statement on (the pool, the typed-SQL helpers, the page helper): the
 * sender is whoever called them. Migrations are checked from their files (table-ownership.test.ts).
 */
const PASS_THROUGH = new Set([
  'platform/src/db.ts',
  'platform/src/db/typed-sql.ts',
  'platform/src/db/page-of.ts',
  'server/src/architecture/testing/sql-capture.ts',
]);
const MIGRATIONS = 'platform/src/migrations.ts';
/** Stacks looked at per statement text and process (`installSqlCapture`). */
const LOOKS_PER_TEXT = 16;

/**
 * The production file that sent a statement, from the files of the stack of the call into pg (innermost
 * first): its first frame in a package's `src` that is not a pass-through. Undefined when a test (or a
 * test helper, or a migration) sent it: a test may set up any scene.
 */
export function senderOf(
  files: readonly (string | null | undefined)[],
): { pkg: string; file: string } | undefined {
  for (const frame of files) {
    const path = frame?.startsWith('file://') ? fileURLToPath(frame) : frame;
    if (!path?.startsWith('/') || !/\.tsx?$/.test(path) || path.includes(`${sep}node_modules${sep}`))
      continue;
    const file = relative(ROOT, path).split(sep).join('/');
    const [pkg, src] = file.split('/');
    if (src !== 'src' || !(PACKAGES as readonly string[]).includes(pkg!)) continue;
    if (PASS_THROUGH.has(file)) continue;
    if (file === MIGRATIONS || isTestCode(path)) return undefined;
    return { pkg: pkg!, file };
  }
  return undefined;
}

/**
 * The files of the current stack above `above`, innermost first: V8's call sites as they are, without
 * formatting the stack as text (which runs every frame through the test runner's source maps).
 */
function callerFiles(above: (...args: never[]) => unknown): (string | null)[] {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  try {
    Error.prepareStackTrace = (_error, sites) => sites;
    Error.stackTraceLimit = 40;
    const holder: { stack?: NodeJS.CallSite[] } = {};
    Error.captureStackTrace(holder, above);
    return (holder.stack ?? []).map((site) => site.getFileName() ?? null);
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
}

const textOf = (config: unknown): string | undefined =>
  typeof config === 'string'
    ? config
    : config && typeof config === 'object' && 'text' in config && typeof config.text === 'string'
      ? config.text
      : undefined;

/**
 * Records every statement sent through node-postgres in this process (`Pool#query` and `Client#query`,
 * where the caller's code is still on the stack), and writes them to the run's folder when `flush` is
 * called. A pool's query reaches `Client#query` again from pg-pool: not counted there.
 */
export function installSqlCapture(): { flush(): void } | undefined {
  const dir = captureDir();
  if (!dir) return undefined;
  const sent = new Map<string, SentStatement>();
  // How often each text's stack was looked at: a statement sent thousands of times (the fuzz test's, a
  // reader's poll) is looked at a few times, which finds its senders (there is one, as a rule) without
  // costing the suite a stack per statement (a stack each made the whole run a minute slower).
  const looked = new Map<string, number>();
  const record = (config: unknown) => {
    const text = textOf(config);
    if (!text) return;
    const times = looked.get(text) ?? 0;
    if (times >= LOOKS_PER_TEXT) return;
    looked.set(text, times + 1);
    const files = callerFiles(record);
    // A pool's query reaches Client#query from pg-pool, at a time of pg-pool's choosing: inside whatever
    // released the client it runs on (another package's transaction ending). The pool's call was
    // recorded with its sender.
    if (files[1]?.includes(`${sep}node_modules${sep}pg-pool${sep}`)) return;
    const sender = senderOf(files);
    if (!sender) return;
    const key = `${sender.file}\n${text}`;
    if (!sent.has(key)) sent.set(key, { ...sender, text });
  };
  for (const proto of [pg.Pool.prototype, pg.Client.prototype] as {
    query: (...args: unknown[]) => unknown;
  }[]) {
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      record(args[0]);
      return original.apply(this, args);
    };
  }
  return {
    flush() {
      if (sent.size === 0) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${process.pid}-${randomUUID()}.json`), JSON.stringify([...sent.values()]));
      sent.clear();
    },
  };
}

/** Every statement the run's test files recorded (each sender and text once). */
export function sentStatements(run?: string): { files: number; statements: SentStatement[] } {
  const dir = captureDir(run);
  if (!dir || !existsSync(dir)) return { files: 0, statements: [] };
  const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  const all = new Map<string, SentStatement>();
  for (const name of names) {
    for (const s of JSON.parse(readFileSync(join(dir, name), 'utf8')) as SentStatement[]) {
      all.set(`${s.file}\n${s.text}`, s);
    }
  }
  return { files: names.length, statements: [...all.values()] };
}
