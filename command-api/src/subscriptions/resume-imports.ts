import { newId } from '@mrn/platform';
import { runInBackground } from '../background.ts';
import { type CommandDeps, systemMetadata } from '../context.ts';
import { runSubscriptionImport } from './import.ts';

/** How often a process looks for imports cut off elsewhere (their lease must have passed too). */
export const RESUME_INTERVAL_MS = 60_000;

/**
 * Imports queued but never finished — the process running them stopped — are run again: at start-up
 * and then every minute, each by the first process to claim it (runSubscriptionImport's lease).
 * Their file is kept until they finish, so nothing a funder uploaded is lost to a restart.
 */
export async function resumeInterruptedImports(deps: CommandDeps): Promise<number> {
  const now = deps.clock.now();
  const { rows } = await deps.pool.query<{ id: string; account_id: string }>(
    `select id, account_id from direct_uploads
      where attached_at is not null and data is not null
        and (import_claimed_until is null or import_claimed_until <= $1)
      order by attached_at`,
    [now],
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
  const tick = () =>
    runInBackground(deps.logger, 'resume interrupted subscription imports', () =>
      resumeInterruptedImports(deps),
    );
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, RESUME_INTERVAL_MS);
  first.unref();
  timer.unref();
  deps.app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(timer);
  });
}
