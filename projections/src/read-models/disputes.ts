import { projector } from '../projector.ts';

/** The dispute queue (read.disputes) and each dispute's internal comment thread (read.dispute_comments). */
export const disputesProjector = projector({
  name: 'disputes',
  tables: ['read.disputes', 'read.dispute_comments'],
  handlers: {
    DisputeSubmitted: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `insert into read.disputes (id, first_name, last_name, email, fein, legal_name, dba, city, state, reason, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          d.disputeId,
          d.firstName,
          d.lastName,
          d.email,
          d.fein,
          d.legalName,
          d.dba,
          d.city,
          d.state,
          d.reason,
          e.recordedAt,
        ],
      );
    },
    // Assigning takes a new dispute into review; a later assignment only changes who has it.
    DisputeAssigned: async (tx, e) => {
      await tx.query(
        `update read.disputes set assigned_to_id = $2, assigned_to_name = $3,
           status = case when status = 'new' then 'in_review' else status end
         where id = $1`,
        [e.data.disputeId, e.data.assigneeUserId, e.data.assigneeName],
      );
    },
    DisputeReviewStarted: async (tx, e) => {
      await tx.query(`update read.disputes set status = 'in_review' where id = $1 and status = 'new'`, [
        e.data.disputeId,
      ]);
    },
    DisputeCommentAdded: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `insert into read.dispute_comments (id, dispute_id, author_id, author_name, text, created_at, log_position)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [d.commentId, d.disputeId, d.authorUserId, d.authorName, d.text, e.recordedAt, e.position],
      );
      await tx.query('update read.disputes set comment_count = comment_count + 1 where id = $1', [
        d.disputeId,
      ]);
    },
    DisputeResolved: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `update read.disputes set status = 'resolved', resolved_at = $2, resolution = $3, explanation = $4,
           resolved_by_id = $5, resolution_note_id = $6, resolution_merchant_id = $7
         where id = $1`,
        [d.disputeId, e.recordedAt, d.resolution, d.explanation, d.resolvedByUserId, d.noteId, d.merchantId],
      );
    },
  },
});
