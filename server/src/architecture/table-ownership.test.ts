import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PublishedTable } from '@mrn/platform';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 22 item 4, DESIGN §2 "Services are siblings": each table has one owning package (the one whose
 * migration creates it) holding the only SQL over it; another package reads it only when the owner
 * publishes it to that package (`<owner>/src/published-tables.ts`, with the reason), and never writes
 * it. A service imports no other service: what services share lives in contracts or platform.
 *
 * Ownership is read from the migrations (`create table`, views, functions, renames) and from any
 * `create table` in production code. The check does not parse SQL: it finds known table names after
 * from/join/into/update/truncate/copy/table, and calls of known functions, in each package's migrations
 * and in the string and template literals of its production sources (tests and testing helpers are not
 * scanned). A published table is only read by its readers, never written. Tools (bench, e2e) are exempt;
 * the composition root `server` may read any table (health, sandbox) but writes only its own.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const SERVICES = ['command-api', 'query-api', 'projections', 'webhook-dispatcher'] as const;
const SHARED = ['contracts', 'platform'] as const;
/** Composition root and tools: may import any package (but web only contracts, DESIGN §2). */
const COMPOSITION = ['server', 'e2e', 'bench', 'web', 'billing-test-server'] as const;
const PACKAGES = [...SHARED, ...SERVICES, ...COMPOSITION];
/** Not checked for SQL at all: tools that set up and measure whole databases. */
const TOOLS = new Set(['e2e', 'bench']);
/** May read any table, but writes only its own. */
const READS_ANYTHING = new Set(['server']);

/**
 * Migrations already applied reach into other packages' tables (a backfill from the log, a checkpoint
 * renamed or moved). Their text is history: `schema_migrations` records each by id and a changed one
 * would leave databases that ran it apart from new ones, so they stay as they are; a new migration may
 * not do it.
 */
const APPLIED_MIGRATIONS: readonly { file: string; table: string }[] = [
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
const ALLOWED: readonly { file: string; table: string; todo: string }[] = [];

/** Known imports of another service, each with what removes it (the list only shrinks, as above). */
const ALLOWED_IMPORTS: readonly { from: string; imports: string; todo: string }[] = [];

/** TODO(issue 22): bench/package.json still exports "./*" (bench/ is being changed by someone else); nothing imports @mrn/bench. */
const WILDCARD_EXPORTS_ALLOWED = new Set(['bench']);

type Access = 'read' | 'write';
interface Reference {
  pkg: string;
  file: string;
  table: string;
  access: Access;
}

const SCHEMA_NAME = '(?:"?[a-z_][a-z0-9_]*"?\\.)?"?[a-z_][a-z0-9_]*"?';
const CREATES = new RegExp(
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
const REFERENCES = new RegExp(
  `\\b(delete\\s+from|from|join|insert\\s+into|into|update|truncate(?:\\s+table)?|copy|table)\\s+(?:only\\s+)?(?:if\\s+(?:not\\s+)?exists\\s+)?(${SCHEMA_NAME}(?:\\s*,\\s*${SCHEMA_NAME})*)`,
  'g',
);

const normalise = (name: string): string => name.replace(/"/g, '').replace(/^public\./, '');

const stripSqlComments = (sql: string): string =>
  sql.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');

function sqlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => join(dir, f));
}

function sourceFiles(dir: string): string[] {
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

/** Tests and the helpers only tests use: `*.test.ts`, `testing.ts`, `test-*.ts`, `testing/…`. */
function isTestCode(path: string): boolean {
  const name = basename(path);
  return (
    /\.test\.tsx?$/.test(name) ||
    /^testing\.tsx?$/.test(name) ||
    /^test-[^/]*\.tsx?$/.test(name) ||
    path.split(sep).includes('testing')
  );
}

const productionSources = (pkg: string): string[] =>
  sourceFiles(join(ROOT, pkg, 'src')).filter((f) => !isTestCode(f));

const literalCache = new Map<string, string[]>();

/** The text of every string and template literal (a substitution becomes `?`). */
function literals(path: string): string[] {
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
function tableOwners(): Map<string, string> {
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

function references(pkg: string, owners: Map<string, string>): Reference[] {
  const calls = [...owners.keys()]
    .filter((name) => name.endsWith('()'))
    .map((name) => ({ name, pattern: new RegExp(`(?<![\\w.])${escapeRegExp(name.slice(0, -2))}\\s*\\(`) }));
  const out: Reference[] = [];
  const seen = new Set<string>();
  for (const { file, texts } of sqlTexts(pkg)) {
    const rel = relative(ROOT, file).split(sep).join('/');
    const add = (table: string, access: Access) => {
      const key = `${rel} ${table} ${access}`;
      if (seen.has(key)) return;
      seen.add(key);
      out.push({ pkg, file: rel, table, access });
    };
    for (const text of texts.map((t) => t.toLowerCase())) {
      for (const m of text.matchAll(REFERENCES)) {
        const keyword = m[1]!.replace(/\s+/g, ' ');
        const access: Access = keyword === 'from' || keyword === 'join' ? 'read' : 'write';
        for (const name of m[2]!.split(',')) {
          const table = normalise(name.trim());
          if (owners.has(table)) add(table, access);
        }
      }
      for (const call of calls) if (call.pattern.test(text)) add(call.name, 'read');
    }
  }
  return out;
}

async function publications(): Promise<Map<string, PublishedTable & { owner: string }>> {
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

interface Finding {
  pkg: string;
  file: string;
  table: string;
  owner: string;
  access: Access;
}

async function findings(): Promise<Finding[]> {
  const owners = tableOwners();
  const published = await publications();
  const out: Finding[] = [];
  for (const pkg of PACKAGES) {
    if (TOOLS.has(pkg)) continue;
    for (const ref of references(pkg, owners)) {
      const owner = owners.get(ref.table)!;
      if (owner === pkg) continue;
      if (ref.access === 'read' && READS_ANYTHING.has(pkg)) continue;
      if (ref.access === 'read' && published.get(ref.table)?.readers.includes(pkg)) continue;
      out.push({ ...ref, owner });
    }
  }
  return out;
}

const describeFinding = (f: Finding) =>
  `${f.pkg}: ${f.file} ${f.access === 'read' ? 'reads' : 'writes'} ${f.table}, owned by ${f.owner}`;

describe('table ownership (issue 22)', () => {
  it('knows who owns each table, from the migrations', () => {
    const owners = tableOwners();
    expect(owners.get('events')).toBe('platform');
    expect(owners.get('read.users')).toBe('projections');
    expect(owners.get('mail_outbox')).toBe('command-api'); // renamed from dispute_mail_outbox
    expect(owners.get('webhook_secrets')).toBe('webhook-dispatcher');
    expect(owners.get('search_quota')).toBe('query-api');
  });

  it('finds SQL references in literals, not in prose or identifiers', () => {
    const owners = new Map([
      ['events', 'platform'],
      ['read.users', 'projections'],
    ]);
    const match = (text: string) =>
      [...text.toLowerCase().matchAll(REFERENCES)].flatMap((m) =>
        m[2]!
          .split(',')
          .map((n) => normalise(n.trim()))
          .filter((n) => owners.has(n)),
      );
    expect(match('select 1 from read.users u join events e on true')).toEqual(['read.users', 'events']);
    expect(match('truncate events, read.users')).toEqual(['events', 'read.users']);
    expect(match('select * from "read"."users"')).toEqual(['read.users']);
    expect(match('events of users from eventsource')).toEqual([]);
  });

  it('every published table is owned by the package that publishes it', async () => {
    const owners = tableOwners();
    const wrong = [...(await publications()).values()]
      .filter(
        (p) =>
          owners.get(p.table) !== p.owner ||
          !p.why.trim() ||
          p.readers.length === 0 ||
          p.readers.some((r) => r === p.owner || !(PACKAGES as readonly string[]).includes(r)),
      )
      .map((p) => `${p.owner} publishes ${p.table} (owned by ${owners.get(p.table) ?? 'nobody'})`);
    expect(wrong).toEqual([]);
  });

  it('a package runs SQL only over the tables it owns, or reads the ones published to it', async () => {
    const all = await findings();
    const known = [...ALLOWED, ...APPLIED_MIGRATIONS];
    const covers = (a: { file: string; table: string }, f: Finding) =>
      a.table === f.table && (a.file.endsWith('/') ? f.file.startsWith(a.file) : a.file === f.file);
    expect(all.filter((f) => !known.some((a) => covers(a, f))).map(describeFinding)).toEqual([]);
    const stale = known.filter((a) => !all.some((f) => covers(a, f)));
    expect(stale, 'allowlist entries that no longer match anything: remove them').toEqual([]);
  });
});

describe('services are siblings (issue 22)', () => {
  /** What each package may import; packages not named (server, tools, billing-test-server) may import anything. */
  const MAY_IMPORT: Record<string, readonly string[]> = {
    contracts: [],
    platform: ['contracts'],
    web: ['contracts'],
    ...Object.fromEntries(SERVICES.map((s) => [s, ['contracts', 'platform']])),
  };
  /**
   * Entry points of another service a service may import (and so declare): projections' queries over
   * its read models (DESIGN §2), which load no projector. Its other entry points stay its own.
   */
  const PUBLISHED_ENTRIES: Record<string, string> = { projections: '@mrn/projections/published' };

  /** Which workspace package an import names: `@mrn/x…`, or a relative path into another package's folder. */
  function importedPackage(fromFile: string, specifier: string): string | null {
    const scoped = /^@mrn\/([a-z-]+)/.exec(specifier);
    if (scoped) return scoped[1]!;
    if (!specifier.startsWith('.')) return null;
    const target = relative(ROOT, join(fromFile, '..', specifier)).split(sep)[0];
    return target && (PACKAGES as readonly string[]).includes(target) ? target : null;
  }

  function wrongImports(): { from: string; imports: string }[] {
    const out: { from: string; imports: string }[] = [];
    for (const pkg of PACKAGES) {
      const allowed = MAY_IMPORT[pkg];
      if (!allowed) continue;
      const ok = (target: string | null | undefined) => !target || target === pkg || allowed.includes(target);
      const isService = (SERVICES as readonly string[]).includes(pkg);
      const published = (target: string | null | undefined, specifier: string) =>
        isService && !!target && PUBLISHED_ENTRIES[target] === specifier;
      for (const file of productionSources(pkg)) {
        // Static imports, re-exports and import() calls; comments and strings are not imports.
        for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
          const target = importedPackage(file, fileName);
          if (!ok(target) && !published(target, fileName)) {
            out.push({ from: relative(ROOT, file).split(sep).join('/'), imports: fileName });
          }
        }
      }
      const manifest = JSON.parse(readFileSync(join(ROOT, pkg, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      for (const dep of Object.keys(manifest.dependencies ?? {})) {
        const target = /^@mrn\/([a-z-]+)$/.exec(dep)?.[1];
        if (!ok(target) && !(isService && target && PUBLISHED_ENTRIES[target])) {
          out.push({ from: `${pkg}/package.json`, imports: dep });
        }
      }
    }
    return out;
  }

  it('a service imports only contracts, platform and what projections publishes, web only contracts (production code and dependencies)', () => {
    const all = wrongImports();
    const isKnown = (w: { from: string; imports: string }) =>
      ALLOWED_IMPORTS.some((a) => a.from === w.from && a.imports === w.imports);
    expect(all.filter((w) => !isKnown(w)).map((w) => `${w.from} imports ${w.imports}`)).toEqual([]);
    const stale = ALLOWED_IMPORTS.filter(
      (a) => !all.some((w) => a.from === w.from && a.imports === w.imports),
    );
    expect(stale, 'allowlist entries that no longer match anything: remove them').toEqual([]);
  });

  it('every package exports named entry points, not "./*"', () => {
    const wildcard: string[] = PACKAGES.filter((pkg) => {
      const manifest = JSON.parse(readFileSync(join(ROOT, pkg, 'package.json'), 'utf8')) as {
        exports?: Record<string, string>;
      };
      return Object.keys(manifest.exports ?? {}).some((k) => k.includes('*'));
    });
    expect(wildcard.filter((pkg) => !WILDCARD_EXPORTS_ALLOWED.has(pkg))).toEqual([]);
    expect([...WILDCARD_EXPORTS_ALLOWED].filter((pkg) => !wildcard.includes(pkg))).toEqual([]);
  });
});
