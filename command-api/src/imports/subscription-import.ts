import type { EventMetadata } from '@mrn/platform';
import { transact } from '../command-handler.ts';
import type { CommandDeps } from '../context.ts';
import { subscriptions } from '../merchant-subscriptions/aggregate.ts';
import type { ImportCounts } from '../merchant-subscriptions/subscriptions.ts';
import { readEinRows } from './ein-csv.ts';

/** A results cell as text a spreadsheet shows as it is (no formula runs: OWASP CSV injection). */
const cell = (value: string | number) => {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/**
 * Runs a queued import in the background: parses the file, subscribes the new EINs in large batches
 * (one event per 5,000 EINs) and records the counts, all in one atomic append; the results CSV (row,
 * input, outcome) is stored for the account's admins. A failure marks the import failed.
 */
export async function runSubscriptionImport(
  deps: CommandDeps,
  accountId: string,
  importId: string,
  metadata: EventMetadata,
): Promise<void> {
  const release = await claimImport(deps, importId);
  if (!release) return;
  try {
    await importClaimed(deps, accountId, importId, metadata);
  } finally {
    await release();
  }
}

async function importClaimed(
  deps: CommandDeps,
  accountId: string,
  importId: string,
  metadata: EventMetadata,
): Promise<void> {
  const ctx = { now: deps.clock.now() };
  await subscriptions.handle(deps, accountId, { type: 'StartImport', importId }, ctx, metadata);
  try {
    const { rows: files } = await deps.pool.query<{ data: Buffer | null }>(
      'select data from direct_uploads where id = $1',
      [importId],
    );
    const rows = await readEinRows(files[0]?.data ?? Buffer.alloc(0));
    await transact(deps, { ctx, metadata }, async (unit) => {
      const outcomes: string[] = [];
      const counts: ImportCounts = { processed: rows.length, imported: 0, skipped: 0, errors: 0 };
      const state = await unit.load(subscriptions, accountId);
      // Finished meanwhile by a run whose lease had expired: its counts and results stand.
      const status = state.imports.get(importId);
      if (status === 'done' || status === 'failed') return;
      const seen = new Set<string>();
      const fresh: string[] = [];
      for (const row of rows) {
        if ('error' in row) {
          counts.errors += 1;
          outcomes.push(row.error);
        } else if (seen.has(row.fein)) {
          counts.skipped += 1;
          outcomes.push('skipped: duplicate in file');
        } else if (state.feins.has(row.fein) && !state.watchUntil.has(row.fein)) {
          seen.add(row.fein);
          counts.skipped += 1;
          outcomes.push('skipped: already subscribed');
        } else {
          seen.add(row.fein);
          fresh.push(row.fein);
          counts.imported += 1;
          outcomes.push('imported');
        }
      }
      await unit.decide(subscriptions, accountId, {
        type: 'Subscribe',
        accountId,
        feins: fresh,
        source: 'import',
      });
      await unit.decide(subscriptions, accountId, { type: 'FinishImport', importId, counts });
      const csv = [
        'row,input,outcome',
        ...rows.map((r, i) => [r.line, cell(r.input), cell(outcomes[i]!)].join(',')),
      ];
      await deps.pool.query(
        `insert into subscription_import_results (import_id, account_id, csv) values ($1, $2, $3)
         on conflict (import_id) do update set csv = excluded.csv`,
        [importId, accountId, `${csv.join('\n')}\n`],
      );
    });
    // The results are kept; the file itself is no longer needed.
    await deps.pool.query('update direct_uploads set data = null where id = $1', [importId]);
  } catch (err) {
    deps.logger.error({ err, importId }, 'merchant subscription import failed');
    await subscriptions.handle(
      deps,
      accountId,
      { type: 'FailImport', importId, reason: 'The file could not be imported.' },
      ctx,
      metadata,
    );
    // A file that failed is not taken up again.
    await deps.pool.query('update direct_uploads set data = null where id = $1', [importId]);
  }
}

/** The advisory-lock space of import runs (any constant; hashed with the import's id). */
const IMPORT_LOCK_SPACE = 727_020;

/**
 * Takes the import for this run, or null when another run holds it or it has finished (its file is
 * dropped once done). The hold is a session advisory lock on a connection kept for the run: a run that
 * dies (a crash, kill -9, a lost connection) lets go of it the moment PostgreSQL sees its connection
 * close, so the import is taken up again at the next look, not after a lease of minutes; a run that
 * lives holds it however long the file takes. Two processes resuming at once start it once.
 */
async function claimImport(deps: CommandDeps, importId: string): Promise<(() => Promise<void>) | null> {
  const client = await deps.pool.connect();
  let held = false;
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      'select pg_try_advisory_lock(hashtextextended($1, $2)) as locked',
      [importId, IMPORT_LOCK_SPACE],
    );
    held = rows[0]?.locked === true;
    if (held) {
      const pending = await client.query('select 1 from direct_uploads where id = $1 and data is not null', [
        importId,
      ]);
      if (pending.rowCount === 1) {
        return async () => {
          await client
            .query('select pg_advisory_unlock(hashtextextended($1, $2))', [importId, IMPORT_LOCK_SPACE])
            .catch(() => undefined);
          client.release();
        };
      }
      await client.query('select pg_advisory_unlock(hashtextextended($1, $2))', [
        importId,
        IMPORT_LOCK_SPACE,
      ]);
    }
    client.release();
    return null;
  } catch (err) {
    // A broken connection is dropped by the pool, and with it any lock it held.
    client.release(err as Error);
    throw err;
  }
}
