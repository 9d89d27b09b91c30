import { brokerKey, PLATFORM_ONLY_CATEGORY, tidyBrokerName } from '@mrn/contracts';
import { lastBy, projector } from '../projector.ts';

interface BrokerNote {
  noteId: string;
  merchantId: string;
  category: string;
  submissionSource: string | null;
  brokerName: string | null;
}

/**
 * The row a note gives, or none: a broker submission naming a broker, in a category funders see. The
 * name is kept tidied (white space collapsed): the record shows the spelling most of its merchants carry.
 */
const rowOf = (n: BrokerNote, at: Date) => {
  const key = n.submissionSource === 'broker' && n.brokerName ? brokerKey(n.brokerName) : '';
  return key && n.category !== PLATFORM_ONLY_CATEGORY
    ? [{ noteId: n.noteId, key, name: tidyBrokerName(n.brokerName!), merchantId: n.merchantId, at }]
    : [];
};

const INSERT = `insert into read.broker_notes (note_id, broker_key, broker_name, merchant_id, reported_at)
  select r."noteId", r.key, r.name, r."merchantId", r.at
  from json_to_recordset($1::json) as r("noteId" uuid, key text, name text, "merchantId" uuid, at timestamptz)
  on conflict (note_id) do update set broker_key = excluded.broker_key, broker_name = excluded.broker_name`;

/**
 * Broker records (issue 24): the live notes that name a broker, by its key (`brokerKey`: a database
 * projected before issue 30's keys is rebuilt, `npm run rebuild -- broker_notes`). An edit may
 * name another broker or none; an archived note or merchant leaves every record.
 */
export const brokerNotesProjector = projector({
  name: 'broker_notes',
  tables: ['read.broker_notes'],
  // The replay finds a note's record by note and a merchant's by merchant; by broker only the queries do.
  deferredIndexes: ['read.broker_notes_key'],
  bulk: {
    order: ['NoteAdded', 'NoteUpdated', 'NoteArchived', 'MerchantArchived'],
    handlers: {
      NoteAdded: async (tx, events) => {
        const rows = events.flatMap((e) => rowOf(e.data, e.recordedAt));
        if (rows.length > 0) await tx.query(INSERT, [JSON.stringify(rows)]);
      },
      NoteUpdated: async (tx, events) => {
        const latest = lastBy(events, (e) => e.data.noteId);
        // The first report's time stays: an edit is not a new report of the broker.
        const { rows: kept } = await tx.query<{ note_id: string; reported_at: Date }>(
          'delete from read.broker_notes where note_id = any($1::uuid[]) returning note_id, reported_at',
          [latest.map((e) => e.data.noteId)],
        );
        const firstAt = new Map(kept.map((r) => [r.note_id, r.reported_at]));
        const rows = latest.flatMap((e) => rowOf(e.data, firstAt.get(e.data.noteId) ?? e.recordedAt));
        if (rows.length > 0) await tx.query(INSERT, [JSON.stringify(rows)]);
      },
      NoteArchived: async (tx, events) => {
        await tx.query('delete from read.broker_notes where note_id = any($1::uuid[])', [
          events.map((e) => e.data.noteId),
        ]);
      },
      MerchantArchived: async (tx, events) => {
        await tx.query('delete from read.broker_notes where merchant_id = any($1::uuid[])', [
          events.map((e) => e.data.merchantId),
        ]);
      },
    },
  },
});
