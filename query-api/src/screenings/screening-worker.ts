import { type EventOf, parseEvent, SIGNAL_GROUPS, type SignalSummary, signalsFrom } from '@mrn/contracts';
import { Consumer, type EventStore, type Logger, type Pool, type PoolClient } from '@mrn/platform';

/** The intake's row in `subscription_checkpoints`. */
export const SCREENING_INTAKE = 'screenings';
/** EINs screened a transaction: a chunk costs about 25 ms, so a report grows visibly every second. */
export const SCREENING_CHUNK = 500;
/** A runner's hold on a screening; renewed every chunk, so only a dead runner's runs out. */
const CLAIM_SECONDS = 30;
/** Screenings one runner works on side by side. */
const MAX_HELD = 4;
/** How often a runner looks for screenings to work on when nothing woke it. */
const LOOK_INTERVAL_MS = 1000;

/** The screening asked for, its rows kept: the EINs to screen (pending) and the rows rejected. */
async function intake(tx: PoolClient, e: EventOf<'ScreeningRequested'>, at: Date): Promise<void> {
  const d = e.data;
  const inserted = await tx.query(
    `insert into screenings (id, account_id, user_id, source, file_name, total, rejected, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (id) do nothing`,
    [d.screeningId, d.accountId, d.userId, d.source, d.fileName, d.rows.length, d.rejected.length, at],
  );
  if (inserted.rowCount === 0) return;
  await tx.query(
    `insert into screening_rows (screening_id, row_no, input, fein, problem, outcome)
     select $1, r.row_no, r.input, r.fein, r.problem, r.outcome
       from json_to_recordset($2::json) as r(row_no int, input text, fein text, problem text, outcome text)`,
    [
      d.screeningId,
      JSON.stringify([
        ...d.rows.map((r) => ({ row_no: r.row, input: r.input, fein: r.fein, problem: null, outcome: null })),
        ...d.rejected.map((r) => ({
          row_no: r.row,
          input: r.input,
          fein: null,
          problem: r.problem,
          outcome: 'rejected',
        })),
      ]),
    ],
  );
}

interface Looked {
  row_no: number;
  id: string | null;
  legal_name: string | null;
  dba: string | null;
  city: string | null;
  state: string | null;
  funders: number | null;
  reports: SignalSummary['reports'] | null;
  open: number;
  resolved: number;
}

// The chunk's EINs, locked (a second runner on the same screening takes other rows), each with its live
// merchant, the merchant's signal summary and the EIN's disputes.
const LOOK_UP = `with chunk as (
    select row_no, fein from screening_rows
     where screening_id = $1 and outcome is null order by row_no limit $2 for update skip locked)
  select c.row_no, m.id, m.legal_name, m.dba, m.city, m.state, sg.funders, sg.reports,
         coalesce(sd.open, 0) as open, coalesce(sd.resolved, 0) as resolved
    from chunk c
    -- read.merchants.fein is char(9): compared as text, the EIN index would not serve the join.
    left join read.merchants m on m.fein = c.fein::char(9) and m.archived_at is null
    left join read.merchant_signals sg on sg.merchant_id = m.id
    left join lateral (select count(*) filter (where not d.resolved)::int as open,
                              count(*) filter (where d.resolved)::int as resolved
                         from read.signal_disputes d where d.fein = c.fein) sd on true`;

/**
 * Screens the next chunk of a screening in one transaction: the rows' outcomes and signals as of now,
 * the screening's counts, its hold renewed; the last chunk marks it done. Returns false when nothing was
 * left (or another runner holds every row left).
 */
export async function screenChunk(pool: Pool, screeningId: string, now: Date): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<Looked>(LOOK_UP, [screeningId, SCREENING_CHUNK]);
    if (rows.length > 0) {
      const results = rows.map((r) => {
        if (r.id === null) return { row_no: r.row_no, outcome: 'not_found' };
        const signals = signalsFrom(
          r.reports ? { funders: r.funders ?? 0, reports: r.reports } : null,
          { open: r.open, resolved: r.resolved },
          now,
        );
        const worst = signals.categories[0]?.group;
        return {
          row_no: r.row_no,
          outcome: 'found',
          merchant_id: r.id,
          merchant: { resource_id: r.id, legal_name: r.legal_name, dba: r.dba, city: r.city, state: r.state },
          signals,
          worst: worst === undefined ? null : SIGNAL_GROUPS.indexOf(worst),
          funders: signals.funders,
        };
      });
      await client.query(
        `update screening_rows s set outcome = r.outcome, merchant_id = r.merchant_id, merchant = r.merchant,
           signals = r.signals, worst = r.worst, funders = r.funders
           from json_to_recordset($2::json) as r(row_no int, outcome text, merchant_id uuid, merchant jsonb,
             signals jsonb, worst smallint, funders int)
          where s.screening_id = $1 and s.row_no = r.row_no`,
        [screeningId, JSON.stringify(results)],
      );
      const found = results.filter((r) => r.outcome === 'found');
      await client.query(
        `update screenings set status = 'running', screened = screened + $2, found = found + $3, flagged = flagged + $4,
           claimed_until = $5::timestamptz + make_interval(secs => ${CLAIM_SECONDS})
         where id = $1`,
        [screeningId, results.length, found.length, found.filter((r) => r.worst !== null).length, now],
      );
    }
    // Done once no row is left to screen, whoever screened the last.
    const finished = await client.query(
      `update screenings set status = 'done', finished_at = $2, claimed_until = null
        where id = $1 and status <> 'done'
          and not exists (select 1 from screening_rows where screening_id = $1 and outcome is null)`,
      [screeningId, now],
    );
    await client.query('commit');
    return rows.length > 0 && finished.rowCount === 0;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Takes up to `limit` unfinished screenings no live runner holds (the oldest first), holding them for
 * this runner: a crashed runner's hold runs out and another goes on from its last chunk.
 */
async function claim(pool: Pool, now: Date, limit: number): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `update screenings set claimed_until = $1::timestamptz + make_interval(secs => ${CLAIM_SECONDS})
      where id in (select id from screenings
                    where status <> 'done' and (claimed_until is null or claimed_until < $1)
                    order by created_at limit $2 for update skip locked)
      returning id`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}

/**
 * The query side's screening work (issue 32): an intake on the one `Consumer` keeps each requested
 * screening's rows (exactly once, with its checkpoint), and a runner screens them a chunk at a time, the
 * screenings it holds side by side (one chunk of each in turn: two funders' screenings both advance).
 */
export class ScreeningWorker {
  private readonly consumer: Consumer<void>;
  private readonly controller = new AbortController();
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;
  /** The screenings this runner works on, one chunk of each in turn. */
  private readonly held = new Set<string>();

  constructor(
    private readonly deps: {
      pool: Pool;
      store: EventStore;
      logger: Logger;
      leaseUrl?: string;
      now?: () => Date;
    },
  ) {
    this.consumer = new Consumer<void>({
      name: SCREENING_INTAKE,
      store: deps.store,
      pool: deps.pool,
      logger: deps.logger,
      ...(deps.leaseUrl ? { leaseUrl: deps.leaseUrl } : {}),
      types: ['ScreeningRequested'],
      handle: async (tx, events) => {
        for (const raw of events) {
          const e = parseEvent(raw) as unknown as EventOf<'ScreeningRequested'>;
          await intake(tx, e, raw.recordedAt);
        }
        return events.length;
      },
      afterCommit: () => this.nudge(),
    });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  start(): this {
    this.consumer.start();
    this.running = this.loop();
    return this;
  }

  async stop(): Promise<void> {
    this.controller.abort();
    this.wake?.();
    await this.consumer.stop();
    await this.running;
  }

  nudge(): void {
    this.wake?.();
  }

  /** For tests: the requests in the log kept (the intake read to the log's end), nothing screened. */
  async readRequests(): Promise<void> {
    await this.consumer.runOnce();
  }

  /** For tests: the intake read to the log's end, then every screening screened to its end. */
  async runOnce(): Promise<void> {
    await this.consumer.runOnce();
    while (await this.screenHeld()) {
      // Each pass screens one chunk of every screening held.
    }
  }

  /**
   * One chunk of each screening this runner holds (taking unheld ones up to four at a time); a
   * screening finished, or whose rows left are all another runner's, is let go. False when nothing was
   * screened.
   */
  private async screenHeld(): Promise<boolean> {
    const room = MAX_HELD - this.held.size;
    if (room > 0) for (const id of await claim(this.deps.pool, this.now(), room)) this.held.add(id);
    let worked = false;
    for (const id of [...this.held]) {
      if (await screenChunk(this.deps.pool, id, this.now())) worked = true;
      else this.held.delete(id);
    }
    return worked;
  }

  private async loop(): Promise<void> {
    const { signal } = this.controller;
    while (!signal.aborted) {
      let worked = false;
      try {
        worked = await this.screenHeld();
      } catch (error) {
        this.deps.logger.error({ err: error }, 'screening runner failed; it tries again');
      }
      if (worked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, LOOK_INTERVAL_MS);
        timer.unref?.();
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }
}
