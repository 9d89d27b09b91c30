import { normaliseEin, signalKindOf } from '@mrn/contracts';
import type { PoolClient } from 'pg';
import { lastBy, projector } from '../projector.ts';

// Each merchant's summary, made again from its notes as they stand: whatever batch or order the log
// came in, the same notes give the same row (order-free). A merchant left with no note that counts
// loses its row.
const SUMMARY_OF = (where: string) => `
  select k.merchant_id, f.funders, k.reports
    from (select merchant_id, jsonb_object_agg(kind, times) as reports
            from (select merchant_id, kind,
                         jsonb_agg((extract(epoch from reported_at) * 1000)::bigint order by reported_at, note_id) as times
                    from read.signal_notes
                   where not archived and kind is not null and ${where}
                   group by merchant_id, kind) per_kind
           group by merchant_id) k
    join (select merchant_id, count(distinct account_id) filter (where kind <> 'satisfied')::int as funders
            from read.signal_notes
           where not archived and kind is not null and ${where}
           group by merchant_id) f using (merchant_id)`;

// The summaries of the merchants given, upserted; a merchant left with nothing that counts loses its row.
const RESUMMARISE = `with summary as (${SUMMARY_OF('merchant_id = any($1::uuid[])')}),
  gone as (delete from read.merchant_signals s where s.merchant_id = any($1::uuid[])
             and not exists (select 1 from summary x where x.merchant_id = s.merchant_id))
  insert into read.merchant_signals (merchant_id, funders, reports) select merchant_id, funders, reports from summary
  on conflict (merchant_id) do update set funders = excluded.funders, reports = excluded.reports`;

const BUILD_SUMMARIES = `insert into read.merchant_signals (merchant_id, funders, reports)
  select * from (${SUMMARY_OF('true')}) s order by merchant_id`;

async function resummarise(tx: PoolClient, merchantIds: Iterable<string>): Promise<void> {
  await tx.query(RESUMMARISE, [[...new Set(merchantIds)]]);
}

/**
 * Risk signals (issue 32, contracts/src/domain/signals.ts): every note as the signals count it, each
 * merchant's summary (distinct funders, each kind's report times) and the disputes filed per EIN. The
 * windows are counted when read (query-api's signalsOf), so the summary never goes stale with time.
 */
export const merchantSignalsProjector = projector({
  name: 'merchant_signals',
  tables: ['read.signal_notes', 'read.merchant_signals', 'read.signal_disputes'],
  // The replay finds a signal note by its note only: the summaries by merchant are built at its end.
  deferredIndexes: ['read.signal_notes_merchant'],
  bulk: {
    order: ['NoteAdded', 'NoteUpdated', 'NoteArchived', 'DisputeSubmitted', 'DisputeResolved'],
    handlers: {
      NoteAdded: async (tx, events) => {
        await tx.query(
          `insert into read.signal_notes (note_id, merchant_id, kind, account_id, reported_at)
           select r."noteId", r."merchantId", r.kind, r."accountId", r.at
             from json_to_recordset($1::json) as r("noteId" uuid, "merchantId" uuid, kind text, "accountId" uuid, at timestamptz)
           on conflict (note_id) do nothing`,
          [
            JSON.stringify(
              events.map((e) => ({
                noteId: e.data.noteId,
                merchantId: e.data.merchantId,
                kind: signalKindOf(e.data.category),
                accountId: e.data.accountId,
                at: e.recordedAt,
              })),
            ),
          ],
        );
      },
      NoteUpdated: async (tx, events) => {
        await tx.query(
          `update read.signal_notes n set kind = r.kind
             from json_to_recordset($1::json) as r("noteId" uuid, kind text) where n.note_id = r."noteId"`,
          [
            JSON.stringify(
              lastBy(events, (e) => e.data.noteId).map((e) => ({
                noteId: e.data.noteId,
                kind: signalKindOf(e.data.category),
              })),
            ),
          ],
        );
      },
      NoteArchived: async (tx, events) => {
        await tx.query('update read.signal_notes set archived = true where note_id = any($1::uuid[])', [
          events.map((e) => e.data.noteId),
        ]);
      },
      DisputeSubmitted: async (tx, events) => {
        await tx.query(
          `insert into read.signal_disputes (dispute_id, fein)
           select * from unnest($1::uuid[], $2::text[]) on conflict (dispute_id) do nothing`,
          [events.map((e) => e.data.disputeId), events.map((e) => normaliseEin(e.data.fein))],
        );
      },
      DisputeResolved: async (tx, events) => {
        await tx.query('update read.signal_disputes set resolved = true where dispute_id = any($1::uuid[])', [
          events.map((e) => e.data.disputeId),
        ]);
      },
    },
  },
  // The summaries of the merchants the batch's notes touched, once per batch; a replay builds them all
  // once the log has been read.
  afterBatch: async (tx, batch, ctx) => {
    if (ctx.replaying) return;
    const touched = batch.flatMap((e) =>
      e.type === 'NoteAdded' || e.type === 'NoteUpdated' || e.type === 'NoteArchived'
        ? [(e.data as { merchantId: string }).merchantId]
        : [],
    );
    if (touched.length > 0) await resummarise(tx, touched);
  },
  derived: {
    tables: ['read.merchant_signals'],
    builds: [
      async (tx) => {
        await tx.query(BUILD_SUMMARIES);
      },
    ],
  },
});
