import type { Queryable, RecordedEvent } from '@mrn/platform';

/**
 * Records the ids of `events` as applied and returns those not recorded before, in their order. Run in
 * the transaction that applies them: if it rolls back, so do the ids, and the redelivered batch is
 * applied then. A redelivered event (the same batch again, or a relay's duplicate) comes back empty.
 */
export async function claimUnseen(tx: Queryable, events: readonly RecordedEvent[]): Promise<RecordedEvent[]> {
  const byId = new Map<string, RecordedEvent>();
  for (const e of events) if (!byId.has(e.id.toLowerCase())) byId.set(e.id.toLowerCase(), e);
  if (byId.size === 0) return [];
  const ids = [...byId.keys()];
  // In id order, so that two consumers inserting overlapping batches (a rebalance) lock rows in the
  // same order and wait for each other instead of deadlocking.
  const { rows } = await tx.query<{ event_id: string }>(
    `insert into webhook_kafka_events (event_id, position)
     select t.id, t.position from unnest($1::uuid[], $2::text[]) as t(id, position) order by t.id
     on conflict (event_id) do nothing
     returning event_id`,
    [ids, ids.map((id) => byId.get(id)!.position)],
  );
  const fresh = new Set(rows.map((r) => r.event_id));
  return [...byId.entries()].filter(([id]) => fresh.has(id)).map(([, e]) => e);
}
