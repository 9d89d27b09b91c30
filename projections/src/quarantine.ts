import type { Pool, Position, Queryable, RecordedEvent } from '@mrn/platform';
import { exec, many, one, sql } from '@mrn/platform/typed-sql';
import { z } from 'zod';

// The quarantine is written when a projector gives up on an event and read by operators and by a halted
// runner's poll, never per batch: slonik tokens with zod rows (issue 22 item 9).

/** A projector stopped at an event it could not apply. */
export interface Quarantined {
  projector: string;
  eventId: string;
  position: Position;
  streamId: string;
  type: string;
  error: string;
  recordedAt: Date;
  since: Date;
}

/** Thrown inside a batch when a projector has quarantined an event: it has applied everything before it. */
export class ProjectorHalted extends Error {
  constructor(
    readonly quarantined: Quarantined,
    /** The projector's position after the last event it did apply. */
    readonly appliedThrough: Position,
  ) {
    super(`Projector ${quarantined.projector} halted at event ${quarantined.eventId} (${quarantined.type})`);
    this.name = 'ProjectorHalted';
  }
}

export async function recordQuarantine(
  pool: Queryable,
  projector: string,
  event: RecordedEvent,
  error: unknown,
  attempts: number,
): Promise<Quarantined> {
  const message = error instanceof Error ? error.message : String(error);
  const { first_failed_at } = await one(
    pool,
    sql.type(z.object({ first_failed_at: z.date() }))`
     insert into projection_quarantine (projector, event_id, position, stream_id, type, error, attempts)
     values (${projector}, ${event.id}, ${event.position}, ${event.streamId}, ${event.type},
             ${message.slice(0, 2000)}, ${attempts})
     on conflict (projector, event_id) do update set
       error = excluded.error, attempts = projection_quarantine.attempts + excluded.attempts,
       last_failed_at = now(), resolved_at = null
     returning first_failed_at`,
  );
  return {
    projector,
    eventId: event.id,
    position: event.position,
    streamId: event.streamId,
    type: event.type,
    error: message,
    recordedAt: event.recordedAt,
    since: first_failed_at,
  };
}

/** Projectors with an event still waiting for an operator. */
export async function unresolvedProjectors(pool: Pool): Promise<Set<string>> {
  const rows = await many(
    pool,
    sql.type(z.object({ projector: z.string() }))`
      select distinct projector from projection_quarantine where resolved_at is null`,
  );
  return new Set(rows.map((r) => r.projector));
}

const QuarantineRow = z.object({
  projector: z.string(),
  event_id: z.string(),
  position: z.string(),
  type: z.string(),
  error: z.string(),
  attempts: z.number(),
  first_failed_at: z.date(),
  last_failed_at: z.date(),
  resolved_at: z.date().nullable(),
});
export type QuarantineRow = z.output<typeof QuarantineRow>;

export async function listQuarantine(pool: Pool): Promise<QuarantineRow[]> {
  return many(
    pool,
    sql.type(QuarantineRow)`
      select projector, event_id, position, type, error, attempts, first_failed_at, last_failed_at, resolved_at
      from projection_quarantine order by first_failed_at`,
  );
}

/** After a fix: the running server retries the projector from where it stopped. */
export async function resolveQuarantine(pool: Pool, projector: string): Promise<number> {
  return exec(
    pool,
    sql.fragment`update projection_quarantine set resolved_at = now()
      where projector = ${projector} and resolved_at is null`,
  );
}
