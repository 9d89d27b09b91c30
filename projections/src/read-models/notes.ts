import { projector } from '../projector.ts';

export const notesProjector = projector({
  name: 'notes',
  tables: ['read.notes'],
  handlers: {
    NoteAdded: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `insert into read.notes (id, merchant_id, category, note, submission_source, broker_name, account_id, user_id,
           proxied_creator, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          d.noteId,
          d.merchantId,
          d.category,
          d.note,
          d.submissionSource,
          d.brokerName,
          d.accountId,
          d.userId,
          d.proxiedCreator,
          e.recordedAt,
        ],
      );
    },
    NoteUpdated: async (tx, e) => {
      const d = e.data;
      await tx.query(
        'update read.notes set category = $2, note = $3, submission_source = $4, broker_name = $5, updated_at = $6 where id = $1',
        [d.noteId, d.category, d.note, d.submissionSource, d.brokerName, e.recordedAt],
      );
    },
    NoteDeletionRequested: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `update read.notes set deletion_requested_at = $2, deletion_reason = $3, deletion_requested_by = $4,
           deletion_requested_account = $5 where id = $1`,
        [d.noteId, e.recordedAt, d.reason, d.userId, d.accountId],
      );
    },
    NoteArchived: async (tx, e) => {
      await tx.query('update read.notes set archived_at = $2 where id = $1', [e.data.noteId, e.recordedAt]);
    },
    // A merchant's notes leave the lists with it and are shown read-only under Deleted Merchants.
    MerchantArchived: async (tx, e) => {
      await tx.query('update read.notes set archived_at = coalesce(archived_at, $2) where merchant_id = $1', [
        e.data.merchantId,
        e.recordedAt,
      ]);
    },
  },
});
