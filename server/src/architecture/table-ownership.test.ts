import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  ALLOWED,
  ALLOWED_IMPORTS,
  APPLIED_MIGRATIONS,
  type Finding,
  findings,
  keptCopies,
  normalise,
  PACKAGES,
  productionSources,
  publications,
  REFERENCES,
  ROOT,
  SERVICES,
  tableOwners,
  WILDCARD_EXPORTS_ALLOWED,
} from './testing/ownership.ts';

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

  it('every copy a package keeps of state another keeps is its own table, and says what it copies and why (issue 33)', async () => {
    const owners = tableOwners();
    const copies = await keptCopies();
    expect(copies.map((c) => c.table)).toEqual(
      expect.arrayContaining(['webhook_accounts', 'webhook_watches', 'webhook_merchants']),
    );
    expect(
      copies
        .filter((c) => owners.get(c.table) !== c.keeper || !c.of.trim() || !c.why.trim())
        .map((c) => `${c.keeper} declares ${c.table} (owned by ${owners.get(c.table) ?? 'nobody'})`),
    ).toEqual([]);
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
