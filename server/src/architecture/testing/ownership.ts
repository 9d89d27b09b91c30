import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { KeptCopy, PublishedTable } from '@mrn/platform';
import ts from 'typescript';
import { isTestCode, PACKAGES, ROOT } from './packages.ts';

/**
 * Table ownership (issue 22, DESIGN §2 "Services are siblings"), as the architecture tests check it: who
 * owns each table (its migrations), what each owner publishes to whom, and which tables a text of SQL
 * reads or writes. The static test (table-ownership.test.ts) applies it to the literals of every
 * production source; the run-time one (sql-sent.after.test.ts) to the statements the suite's servers
 * actually sent (sql-capture.ts), which also sees SQL assembled from parts.
 */

export { COMPOSITION, isTestCode, PACKAGES, ROOT, SERVICES, SHARED } from './packages.ts';
/** Not checked for SQL at all: tools that set up and measure whole databases. */
export const TOOLS = new Set(['e2e', 'bench']);
/** May read any table, but writes only its own. */
export const READS_ANYTHING = new Set(['server']);

/**
 * Migrations already applied reach into other packages' tables (a backfill from the log, a checkpoint
 * renamed or moved). Their text is history: `schema_migrations` records each by id and a changed one
 * would leave databases that ran it apart from new ones, so they stay as they are; a new migration may
 * not do it.
 */
export const APPLIED_MIGRATIONS: readonly { file: string; table: string }[] = [
  { file: 'command-api/migrations/0010_note_streams.sql', table: 'events' },
  { file: 'command-api/migrations/0015_dispute_mail_outbox.sql', table: 'events' },
  { file: 'command-api/migrations/0018_mail_outbox.sql', table: 'subscription_checkpoints' },
  { file: 'projections/migrations/0013_watch_expiry.sql', table: 'subscription_checkpoints' },
  { file: 'projections/migrations/0018_account_billing_state.sql', table: 'events' },
  { file: 'webhook-dispatcher/migrations/0002_plan_and_merged_notes.sql', table: 'subscription_checkpoints' },
];

/**
 * Known violations, each with what removes it (a `file` ending in `/` covers a folder). An entry that
 * no longer matches a finding fails the test, so the list only shrinks.
 */
export const ALLOWED: readonly { file: string; table: string; todo: string }[] = [];

/** Known imports of another service, each with what removes it (the list only shrinks, as above). */
export const ALLOWED_IMPORTS: readonly { from: string; imports: string; todo: string }[] = [];

/** TODO(issue 22): bench/package.json still exports "./*" (bench/ is being changed by someone else); nothing imports @mrn/bench. */
export const WILDCARD_EXPORTS_ALLOWED = new Set(['bench']);

export type Access = 'read' | 'write';
export interface Reference {
  pkg: string;
  file: string;
  table: string;
  access: Access;
}

const SCHEMA_NAME = '(?:"?[a-z_][a-z0-9_]*"?\\.)?"?[a-z_][a-z0-9_]*"?';
export const CREATES = new RegExp(
  `\\bcreate\\s+(?:or\\s+replace\\s+)?(?:(?:unlogged|temp|temporary)\\s+)?(?:table|(?:materialized\\s+)?view)\\s+(?:if\\s+not\\s+exists\\s+)?(${SCHEMA_NAME})`,
  'g',
);
const RENAMES = new RegExp(
  `\\balter\\s+table\\s+(?:if\\s+exists\\s+)?(${SCHEMA_NAME})\\s+rename\\s+to\\s+("?[a-z_][a-z0-9_]*"?)`,
  'g',
);
const CREATES_FUNCTION = new RegExp(
  `\\bcreate\\s+(?:or\\s+replace\\s+)?(?:function|procedure)\\s+(${SCHEMA_NAME})\\s*\\(`,
  'g',
);
/** `keyword name[, name…]`; the keyword decides read or write. */
export const REFERENCES = new RegExp(
  `\\b(delete\\s+from|from|join|insert\\s+into|into|update|truncate(?:\\s+table)?|copy|table)\\s+(?:only\\s+)?(?:if\\s+(?:not\\s+)?exists\\s+)?(${SCHEMA_NAME}(?:\\s*,\\s*${SCHEMA_NAME})*)`,
  'g',
);

export const normalise = (name: string): string => name.replace(/"/g, '').replace(/^public\./, '');

const stripSqlComments = (sql: string): string =>
  sql.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');

export function sqlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => join(dir, f));
}

export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (entry === 'node_modules' || entry === 'dist') continue;
      out.push(...sourceFiles(path));
    } else if (/\.(ts|tsx)$/.test(entry) && !entry.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out.sort();
}

export const productionSources = (pkg: string): string[] =>
  sourceFiles(join(ROOT, pkg, 'src')).filter((f) => !isTestCode(f));

const literalCache = new Map<string, string[]>();

/** The text of every string and template literal (a substitution becomes `?`). */
export function literals(path: string): string[] {
  const cached = literalCache.get(path);
  if (cached) return cached;
  const text = readFileSync(path, 'utf8');
  const out: string[] = [];
  // Parsing is the slow part: a file with no SQL verb in it has no SQL.
  if (!/\b(?:select|insert|update|delete|truncate|copy|create|alter)\b/i.test(text)) {
    literalCache.set(path, out);
    return out;
  }
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
    else if (ts.isTemplateExpression(node)) {
      out.push(node.head.text + node.templateSpans.map((s) => ` ? ${s.literal.text}`).join(''));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  literalCache.set(path, out);
  return out;
}

/** table → owning package, from each package's migrations and any `create table` in its production code. */
export function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  const claim = (table: string, pkg: string, where: string) => {
    const previous = owners.get(table);
    if (previous && previous !== pkg) {
      throw new Error(`${table} is created by both ${previous} and ${pkg} (${where})`);
    }
    owners.set(table, pkg);
  };
  for (const pkg of PACKAGES) {
    for (const file of sqlFiles(join(ROOT, pkg, 'migrations'))) {
      const sql = stripSqlComments(readFileSync(file, 'utf8').toLowerCase());
      for (const m of sql.matchAll(CREATES)) claim(normalise(m[1]!), pkg, file);
      for (const m of sql.matchAll(CREATES_FUNCTION)) claim(`${normalise(m[1]!)}()`, pkg, file);
      for (const m of sql.matchAll(RENAMES)) {
        const from = normalise(m[1]!);
        const schema = from.includes('.') ? `${from.split('.')[0]}.` : '';
        claim(`${schema}${normalise(m[2]!)}`, owners.get(from) ?? pkg, file);
      }
    }
    for (const file of productionSources(pkg)) {
      for (const text of literals(file)) {
        for (const m of text.toLowerCase().matchAll(CREATES)) claim(normalise(m[1]!), pkg, file);
      }
    }
  }
  return owners;
}

/** Each SQL-ish text of a package: its migrations, and the literals of its production sources. */
function sqlTexts(pkg: string): { file: string; texts: string[] }[] {
  return [
    ...sqlFiles(join(ROOT, pkg, 'migrations')).map((file) => ({
      file,
      texts: [stripSqlComments(readFileSync(file, 'utf8'))],
    })),
    ...productionSources(pkg).map((file) => ({ file, texts: literals(file) })),
  ];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The owned tables (and functions, `name()`) a text of SQL reads or writes, each once. */
export function tablesIn(text: string, owners: Map<string, string>): { table: string; access: Access }[] {
  const out = new Map<string, Access>();
  const add = (table: string, access: Access) => {
    if (out.get(table) !== 'write') out.set(table, access);
  };
  const lower = text.toLowerCase();
  for (const m of lower.matchAll(REFERENCES)) {
    const keyword = m[1]!.replace(/\s+/g, ' ');
    const access: Access = keyword === 'from' || keyword === 'join' ? 'read' : 'write';
    for (const name of m[2]!.split(',')) {
      const table = normalise(name.trim());
      if (owners.has(table)) add(table, access);
    }
  }
  for (const call of functionCalls(owners)) if (call.pattern.test(lower)) add(call.name, 'read');
  return [...out].map(([table, access]) => ({ table, access }));
}

const callPatterns = new WeakMap<Map<string, string>, { name: string; pattern: RegExp }[]>();
function functionCalls(owners: Map<string, string>): { name: string; pattern: RegExp }[] {
  let calls = callPatterns.get(owners);
  if (!calls) {
    calls = [...owners.keys()]
      .filter((name) => name.endsWith('()'))
      .map((name) => ({ name, pattern: new RegExp(`(?<![\\w.])${escapeRegExp(name.slice(0, -2))}\\s*\\(`) }));
    callPatterns.set(owners, calls);
  }
  return calls;
}

export function references(pkg: string, owners: Map<string, string>): Reference[] {
  const out: Reference[] = [];
  const seen = new Set<string>();
  for (const { file, texts } of sqlTexts(pkg)) {
    const rel = relative(ROOT, file).split(sep).join('/');
    for (const text of texts) {
      for (const { table, access } of tablesIn(text, owners)) {
        const key = `${rel} ${table} ${access}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ pkg, file: rel, table, access });
      }
    }
  }
  return out;
}

/**
 * Whether `pkg` may `access` `table`: it owns it, or reads it as the composition root may, or reads it
 * as published to it. The owner when it may not.
 */
export function forbiddenOwner(
  pkg: string,
  table: string,
  access: Access,
  owners: Map<string, string>,
  published: Map<string, PublishedTable & { owner: string }>,
): string | undefined {
  const owner = owners.get(table)!;
  if (owner === pkg) return undefined;
  if (access === 'read' && READS_ANYTHING.has(pkg)) return undefined;
  if (access === 'read' && published.get(table)?.readers.includes(pkg)) return undefined;
  return owner;
}

/** Each package's declared copies of another's state (`keptCopies` of its published-tables.ts). */
export async function keptCopies(): Promise<(KeptCopy & { keeper: string })[]> {
  const out: (KeptCopy & { keeper: string })[] = [];
  for (const pkg of PACKAGES) {
    const file = join(ROOT, pkg, 'src', 'published-tables.ts');
    if (!existsSync(file)) continue;
    const mod = (await import(pathToFileURL(file).href)) as { keptCopies?: readonly KeptCopy[] };
    for (const copy of mod.keptCopies ?? []) out.push({ ...copy, keeper: pkg });
  }
  return out;
}

export async function publications(): Promise<Map<string, PublishedTable & { owner: string }>> {
  const out = new Map<string, PublishedTable & { owner: string }>();
  for (const pkg of PACKAGES) {
    const file = join(ROOT, pkg, 'src', 'published-tables.ts');
    if (!existsSync(file)) continue;
    const mod = (await import(pathToFileURL(file).href)) as { publishedTables?: readonly PublishedTable[] };
    if (!mod.publishedTables) throw new Error(`${pkg}/src/published-tables.ts exports no publishedTables`);
    for (const p of mod.publishedTables) out.set(p.table, { ...p, owner: pkg });
  }
  return out;
}

export interface Finding {
  pkg: string;
  file: string;
  table: string;
  owner: string;
  access: Access;
}

export async function findings(): Promise<Finding[]> {
  const owners = tableOwners();
  const published = await publications();
  const out: Finding[] = [];
  for (const pkg of PACKAGES) {
    if (TOOLS.has(pkg)) continue;
    for (const ref of references(pkg, owners)) {
      const owner = forbiddenOwner(pkg, ref.table, ref.access, owners, published);
      if (owner) out.push({ ...ref, owner });
    }
  }
  return out;
}
