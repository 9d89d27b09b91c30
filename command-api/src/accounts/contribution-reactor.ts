import { parseTypedEvent } from '@mrn/contracts';
import {
  type Clock,
  Consumer,
  type EventStore,
  type Logger,
  type Pool,
  type Position,
  type ReadModelProgress,
  type RecordedEvent,
  sleepUnlessAborted,
  startCheckpointAt,
} from '@mrn/platform';
import { reassessAfterRecords } from './contribution.ts';

/** The reactor's row in `subscription_checkpoints`: a position of the event log. */
export const CONTRIBUTION_REACTOR_CHECKPOINT = 'contribution-reassessment';
/** The records a funder is credited with (contribution's merchants and notes added): all it reads. */
const RECORD_TYPES = ['MerchantAdded', 'NoteAdded'];
/** Under load, the records of the last 50 ms at once: one assessment per funder per batch. */
const BATCH_INTERVAL_MS = 50;

interface Deps {
  pool: Pool;
  store: EventStore;
  clock: Clock;
  logger: Logger;
  readModels: ReadModelProgress;
  leaseUrl?: string;
}

/**
 * New records raise a funder's contribution: a funder under a warning or lock is assessed again once the
 * contribution read model has counted them (`reassessAfterRecords`), so a figure back at the minimum lifts
 * the warning and lock at once rather than at the next day's assessment. A reactor on the platform
 * `Consumer` (issue 33: what follows a command is never a promise the request leaves running): its
 * checkpoint, lease, retries and backoff, and a stop that finishes the batch in hand.
 *
 * At least once: the assessment is appended before the checkpoint moves, and assessing again appends
 * nothing when nothing changed (the account decider). It starts at the log's head the first time it runs:
 * records made before it existed were assessed when they were made.
 */
export class ContributionReactor {
  private readonly consumer: Consumer<number>;
  private readonly stopping = new AbortController();
  private starting: Promise<void> | undefined;

  constructor(private readonly deps: Deps) {
    this.consumer = new Consumer<number>({
      name: CONTRIBUTION_REACTOR_CHECKPOINT,
      store: deps.store,
      pool: deps.pool,
      logger: deps.logger,
      ...(deps.leaseUrl ? { leaseUrl: deps.leaseUrl } : {}),
      types: RECORD_TYPES,
      batchIntervalMs: BATCH_INTERVAL_MS,
      beforeCommit: (events) => this.reassess(events),
    });
  }

  start(): this {
    this.starting = this.begin();
    return this;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.starting;
    await this.consumer.stop();
  }

  /** For tests and tools: handle the log from the checkpoint to its head now. */
  runOnce(): Promise<number> {
    return this.consumer.runOnce();
  }

  /** Its checkpoint at the log's head unless it has one, then the log followed from there. */
  private async begin(): Promise<void> {
    for (let failures = 0; !this.stopping.signal.aborted; failures++) {
      try {
        await startCheckpointAt(
          this.deps.pool,
          CONTRIBUTION_REACTOR_CHECKPOINT,
          await this.deps.store.headPosition(),
        );
        this.consumer.start();
        return;
      } catch (err) {
        // Never from the log's start: every record ever made would be assessed again.
        this.deps.logger.error({ err }, 'contribution reactor not started; trying again');
        await sleepUnlessAborted(Math.min(30_000, 1000 * 2 ** Math.min(failures, 5)), this.stopping.signal);
      }
    }
  }

  /** Each funder credited in the batch, assessed once as of its last record in it. */
  private async reassess(events: RecordedEvent[]): Promise<number> {
    const last = new Map<string, { position: Position; correlationId: string | undefined }>();
    for (const raw of events) {
      const e = parseTypedEvent(raw);
      if (e.type !== 'MerchantAdded' && e.type !== 'NoteAdded') continue;
      last.set(e.data.accountId, {
        position: e.position,
        correlationId: e.metadata.correlationId ?? undefined,
      });
    }
    let appended = 0;
    for (const [accountId, at] of last) {
      appended += await reassessAfterRecords(this.deps, accountId, at.position, {
        ...(at.correlationId ? { correlationId: at.correlationId } : {}),
      });
    }
    return appended;
  }
}

export const runContributionReactor = (deps: Deps): ContributionReactor =>
  new ContributionReactor(deps).start();
