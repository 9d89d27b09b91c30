import { describe, expect, it } from 'vitest';
import {
  ALLOWED,
  forbiddenOwner,
  publications,
  SERVICES,
  TOOLS,
  tableOwners,
  tablesIn,
} from './testing/ownership.ts';
import { senderOf, sentStatements } from './testing/sql-capture.ts';

/**
 * Issue 33: table ownership (DESIGN §2) checked on the statements the suite's servers actually sent, as
 * PostgreSQL got them: a table named by a part assembled at run time (`from ${table}`) shows here, where
 * the static check (table-ownership.test.ts) reads only each source's literals. Runs after every other
 * project of the suite (vitest.config.ts, `groupOrder`), over what their test files recorded
 * (testing/sql-capture.ts); statements sent by tests and test helpers are not counted.
 */

const { files, statements } = sentStatements();
/** A whole run's files send statements from every service; a run of a few files may not. */
const WHOLE_RUN = 60;

describe('SQL sent during the test run', () => {
  it('names the production file that sent a statement, past the pool and the typed-SQL helpers', () => {
    const stack = (...paths: string[]) => paths.map((p) => `${process.cwd()}/${p}`);
    expect(
      senderOf(
        stack('node_modules/pg/lib/client.js', 'platform/src/db/typed-sql.ts', 'projections/src/runner.ts'),
      ),
    ).toEqual({ pkg: 'projections', file: 'projections/src/runner.ts' });
    expect(senderOf(stack('platform/src/db.ts', 'query-api/src/search/search-handlers.ts'))).toEqual({
      pkg: 'query-api',
      file: 'query-api/src/search/search-handlers.ts',
    });
    // A test's own statements, a test helper's and the migrations' are not a package's.
    expect(senderOf(stack('query-api/src/search/keyword-search.http.test.ts'))).toBeUndefined();
    expect(senderOf(stack('platform/src/testing.ts', 'platform/src/event-store/x.ts'))).toBeUndefined();
    expect(senderOf(stack('platform/src/migrations.ts'))).toBeUndefined();
    expect(senderOf(stack('node_modules/pg-pool/index.js'))).toBeUndefined();
    // ES modules' call sites are file URLs.
    expect(senderOf([`file://${process.cwd()}/command-api/src/mail/mail-outbox.ts`, null])).toEqual({
      pkg: 'command-api',
      file: 'command-api/src/mail/mail-outbox.ts',
    });
  });

  it.skipIf(files === 0)(
    `every statement a package sent is over tables it owns, or reads of tables published to it (${statements.length} statements from ${files} test files)`,
    async () => {
      const owners = tableOwners();
      const published = await publications();
      const wrong = new Set<string>();
      for (const s of statements) {
        if (TOOLS.has(s.pkg)) continue;
        for (const { table, access } of tablesIn(s.text, owners)) {
          const owner = forbiddenOwner(s.pkg, table, access, owners, published);
          if (!owner) continue;
          if (
            ALLOWED.some(
              (a) =>
                a.table === table && (a.file.endsWith('/') ? s.file.startsWith(a.file) : a.file === s.file),
            )
          )
            continue;
          wrong.add(
            `${s.pkg}: ${s.file} ${access === 'read' ? 'reads' : 'writes'} ${table}, owned by ${owner}`,
          );
        }
      }
      expect([...wrong].sort()).toEqual([]);
    },
  );

  it.skipIf(files < WHOLE_RUN)('a whole run recorded statements of platform and of every service', () => {
    const senders = new Set(statements.map((s) => s.pkg));
    expect(['platform', ...SERVICES].filter((pkg) => !senders.has(pkg))).toEqual([]);
  });
});
