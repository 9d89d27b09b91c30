import { lastBy, projector } from '../projector.ts';

export const notesProjector = projector({
  name: 'notes',
  tables: ['read.notes'],
  // The replay finds notes by id and by merchant only.
  deferredIndexes: ['read.notes_recent', 'read.notes_recent_category', 'read.notes_reported'],
  bulk: {
    order: ['NoteAdded', 'NoteUpdated', 'NoteDeletionRequested', 'NoteArchived', 'MerchantArchived'],
    handlers: {
      NoteAdded: async (tx, events) => {
        await tx.query(
          `insert into read.notes (id, merchant_id, category, note, submission_source, broker_name, account_id, user_id,
             proxied_creator, created_at)
           select r."noteId", r."merchantId", r.category, r.note, r."submissionSource", r."brokerName", r."accountId",
             r."userId", r."proxiedCreator", r.at
           from json_to_recordset($1::json) as r("noteId" uuid, "merchantId" uuid, category text, note text,
             "submissionSource" text, "brokerName" text, "accountId" uuid, "userId" uuid, "proxiedCreator" uuid, at timestamptz)`,
          [JSON.stringify(events.map((e) => ({ ...e.data, at: e.recordedAt })))],
        );
      },
      NoteUpdated: async (tx, events) => {
        await tx.query(
          `update read.notes n set category = r.category, note = r.note, submission_source = r."submissionSource",
             broker_name = r."brokerName", updated_at = r.at
           from json_to_recordset($1::json) as r("noteId" uuid, category text, note text, "submissionSource" text,
             "brokerName" text, at timestamptz)
           where n.id = r."noteId"`,
          [
            JSON.stringify(
              lastBy(events, (e) => e.data.noteId).map((e) => ({ ...e.data, at: e.recordedAt })),
            ),
          ],
        );
      },
      NoteDeletionRequested: async (tx, events) => {
        await tx.query(
          `update read.notes n set deletion_requested_at = r.at, deletion_reason = r.reason,
             deletion_requested_by = r."userId", deletion_requested_account = r."accountId"
           from json_to_recordset($1::json) as r("noteId" uuid, reason text, "userId" uuid, "accountId" uuid, at timestamptz)
           where n.id = r."noteId"`,
          [
            JSON.stringify(
              lastBy(events, (e) => e.data.noteId).map((e) => ({ ...e.data, at: e.recordedAt })),
            ),
          ],
        );
      },
      NoteArchived: async (tx, events) => {
        await tx.query(
          `update read.notes n set archived_at = r.at
           from json_to_recordset($1::json) as r("noteId" uuid, at timestamptz) where n.id = r."noteId"`,
          [
            JSON.stringify(
              lastBy(events, (e) => e.data.noteId).map((e) => ({ noteId: e.data.noteId, at: e.recordedAt })),
            ),
          ],
        );
      },
      // A merchant's notes leave the lists with it and are shown read-only under Deleted Merchants.
      MerchantArchived: async (tx, events) => {
        await tx.query(
          `update read.notes n set archived_at = coalesce(n.archived_at, r.at)
           from json_to_recordset($1::json) as r("merchantId" uuid, at timestamptz) where n.merchant_id = r."merchantId"`,
          [JSON.stringify(events.map((e) => ({ merchantId: e.data.merchantId, at: e.recordedAt })))],
        );
      },
    },
  },
});
