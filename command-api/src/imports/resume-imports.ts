import { newId } from '@mrn/platform';
import { runInBackground } from '../background.ts';
import { type CommandDeps, systemMetadata } from '../context.ts';
import { runSubscriptionImport } from './subscription-import.ts';

/**
 * How often a process looks for imports cut off elsewhere. A look costs one index scan of the unfinished
 * uploads and a lock attempt on each (refused at once while its run lives).
 */
export const RESUME_INTERVAL_MS = 5000;

/**
 * Imports queued but never finished — the process running them stopped — are run again: at start-up
 * and then every few seconds, each by the first process to claim it (runSubscriptionImport's advisory
 * lock, which a dead run no longer holds). Their file is kept until they finish, so nothing a funder
 * uploaded is lost to a restart.
 */
export async function resumeInterruptedImports(deps: CommandDeps): Promise<number> {
  const { rows } = await deps.pool.query<{ id: string; account_id: string }>(
    `select id, account_id from direct_uploads
      where attached_at is not null and data is not null
      order by attached_at`,
  );
  for (const row of rows) {
    await runSubscriptionImport(deps, row.account_id, row.id, {
      ...systemMetadata(),
      correlationId: newId(),
    });
  }
  return rows.length;
}

/** Starts the resume loop; it ends when the app closes. */
export function startImportResumer(deps: CommandDeps): void {
  // One look at a time: a look runs the imports it takes up, which may take a while.
  let looking = false;
  const tick = () => {
    if (looking) return;
    looking = true;
    runInBackground(deps.logger, 'resume interrupted subscription imports', () =>
      resumeInterruptedImports(deps).finally(() => {
        looking = false;
      }),
    );
  };
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, RESUME_INTERVAL_MS);
  first.unref();
  timer.unref();
  deps.app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(timer);
  });
}
