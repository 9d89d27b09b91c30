import type { Pool, Position, RecordedEvent } from '@mrn/platform';

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
  pool: Pool,
  projector: string,
  event: RecordedEvent,
  error: unknown,
  attempts: number,
): Promise<Quarantined> {
  const message = error instanceof Error ? error.message : String(error);
  const { rows } = await pool.query<{ first_failed_at: Date }>(
    `insert into projection_quarantine (projector, event_id, position, stream_id, type, error, attempts)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (projector, event_id) do update set
       error = excluded.error, attempts = projection_quarantine.attempts + excluded.attempts,
       last_failed_at = now(), resolved_at = null
     returning first_failed_at`,
    [projector, event.id, event.position, event.streamId, event.type, message.slice(0, 2000), attempts],
  );
  return {
    projector,
    eventId: event.id,
    position: event.position,
    streamId: event.streamId,
    type: event.type,
    error: message,
    recordedAt: event.recordedAt,
    since: rows[0]?.first_failed_at ?? new Date(),
  };
}

/** Projectors with an event still waiting for an operator. */
export async function unresolvedProjectors(pool: Pool): Promise<Set<string>> {
  const { rows } = await pool.query<{ projector: string }>(
    'select distinct projector from projection_quarantine where resolved_at is null',
  );
  return new Set(rows.map((r) => r.projector));
}

export interface QuarantineRow {
  projector: string;
  event_id: string;
  position: string;
  type: string;
  error: string;
  attempts: number;
  first_failed_at: Date;
  last_failed_at: Date;
  resolved_at: Date | null;
}

export async function listQuarantine(pool: Pool): Promise<QuarantineRow[]> {
  const { rows } = await pool.query<QuarantineRow>(
    'select projector, event_id, position, type, error, attempts, first_failed_at, last_failed_at, resolved_at from projection_quarantine order by first_failed_at',
  );
  return rows;
}

/** After a fix: the running server retries the projector from where it stopped. */
export async function resolveQuarantine(pool: Pool, projector: string): Promise<number> {
  const { rowCount } = await pool.query(
    'update projection_quarantine set resolved_at = now() where projector = $1 and resolved_at is null',
    [projector],
  );
  return rowCount ?? 0;
}
