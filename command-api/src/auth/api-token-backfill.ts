import { setTimeout as sleep } from 'node:timers/promises';
import { type EventData, parseEvent, streams } from '@mrn/contracts';
import { type Clock, type EventStore, type Logger, START } from '@mrn/platform';
import { defineAggregate } from '../command-handler.ts';
import { systemMetadata } from '../context.ts';
import { hashSecret } from '../credentials/tokens.ts';
import { apiTokens, users } from '../users/aggregates.ts';
import { apiTokenBackfillDecider } from '../users/api-token-reservation.ts';

const backfills = defineAggregate({
  decider: apiTokenBackfillDecider,
  streamId: () => streams.apiTokenBackfill(),
});

const PAGE = 1000;
const RETRY_MS = 60_000;

/**
 * Reserves, once, the API tokens granted before tokens were reserved (`api-token-{sha256}`), so that the
 * token check of POST /api/v2/token decides from the reservation and the user's stream alone. Each user
 * ever granted access is found in the log; the user's own stream says whether a token is still current
 * (a revocation ends it, a regeneration keeps it with a new key), and a current one is reserved by the
 * command a grant decides. Reserving a token already reserved decides nothing, and a lost append race is
 * decided again, so processes running this at once reserve each token once and neither fails. The last
 * step records the backfill (`api-token-backfill`), and a start that finds it there reads nothing more.
 * Answers how many current tokens were found, or null when an earlier run had recorded the backfill.
 */
export async function backfillApiTokens(
  deps: { store: EventStore; clock: Clock },
  signal?: AbortSignal,
): Promise<number | null> {
  if ((await backfills.load(deps.store, '')).state.done) return null;
  const granted = new Set<string>();
  for (let from = START; ; ) {
    signal?.throwIfAborted();
    const page = await deps.store.readAll({
      fromPosition: from,
      maxCount: PAGE,
      types: ['UserApiAccessGranted'],
    });
    if (page.length === 0) break;
    for (const e of page) granted.add((parseEvent(e).data as EventData<'UserApiAccessGranted'>).userId);
    from = page.at(-1)!.position;
  }
  const ctx = { now: deps.clock.now() };
  let found = 0;
  for (const userId of granted) {
    signal?.throwIfAborted();
    const { state: user } = await users.load(deps.store, userId);
    if (user.status === 'none' || !user.api) continue;
    found++;
    // A revocation landing after this look leaves a reservation of an ended token: harmless, as the
    // token check also asks the user's stream whether the token is still theirs.
    const command = { type: 'AssignApiToken', userId } as const;
    await apiTokens.handle(deps, hashSecret(user.api.token), command, ctx, systemMetadata());
  }
  await backfills.handle(deps, '', { type: 'RecordApiTokenBackfill', found }, ctx, systemMetadata());
  return found;
}

/** This process's backfill of each event store while it runs (the token check waits on it). */
const running = new WeakMap<EventStore, Promise<void>>();

/**
 * The backfill's end while it is still running in this process on `store`; undefined once it has ended,
 * or where none runs (the sandbox, whose mirrored users get their reservations with their grants).
 */
export const apiTokenBackfillRunning = (store: EventStore): Promise<void> | undefined => running.get(store);

/**
 * Runs the backfill in the background at command-api's start: requests are served meanwhile (the token
 * check waits for it only for a token it does not find reserved). A failed run is logged and tried again
 * a minute later; `stop` ends it where it is (it is taken up again at the next start).
 */
export function startApiTokenBackfill(deps: { store: EventStore; clock: Clock; logger: Logger }): {
  stop(): Promise<void>;
} {
  const controller = new AbortController();
  const { signal } = controller;
  const done = (async () => {
    while (!signal.aborted) {
      try {
        const found = await backfillApiTokens(deps, signal);
        if (found !== null) deps.logger.info({ found }, 'API tokens granted before reservations reserved');
        return;
      } catch (err) {
        if (signal.aborted) return;
        deps.logger.error({ err }, 'API tokens could not be backfilled; retrying in a minute');
        await sleep(RETRY_MS, undefined, { signal, ref: false }).catch(() => undefined);
      }
    }
  })();
  running.set(deps.store, done);
  void done.finally(() => {
    if (running.get(deps.store) === done) running.delete(deps.store);
  });
  return {
    async stop() {
      controller.abort();
      await done;
    },
  };
}
