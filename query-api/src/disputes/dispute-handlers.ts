import {
  type DisputeCommentView,
  type DisputeView,
  daysOpen,
  type getDispute,
  type listDisputes,
} from '@mrn/contracts';
import { type Handler, notFound } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';
import { iso, pagination } from '../views.ts';

interface DisputeRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  fein: string;
  legal_name: string;
  dba: string | null;
  city: string;
  state: string;
  reason: string;
  created_at: Date;
  status: DisputeView['status'];
  assigned_to_id: string | null;
  assigned_to_name: string | null;
  resolved_at: Date | null;
  resolution: DisputeView['resolution'];
  explanation: string | null;
  resolved_by_id: string | null;
  resolved_by_name: string | null;
  resolution_note_id: string | null;
  resolution_merchant_id: string | null;
  comment_count: number;
  merchant_id: string | null;
}

// The live merchant with the dispute's EIN, and people's current names (as assigned, if they are gone).
const SELECT = `
  select d.*, m.id as merchant_id,
         coalesce(nullif(trim(a.first_name || ' ' || a.last_name), ''), d.assigned_to_name) as assigned_to_name,
         nullif(trim(r.first_name || ' ' || r.last_name), '') as resolved_by_name
    from read.disputes d
    left join lateral (select id from read.merchants m where m.fein = d.fein and m.archived_at is null limit 1) m on true
    left join read.users a on a.id = d.assigned_to_id
    left join read.users r on r.id = d.resolved_by_id`;

const STATUS_SETS = {
  open: ['new', 'in_review'],
  new: ['new'],
  in_review: ['in_review'],
  resolved: ['resolved'],
} as const;

function toView(r: DisputeRow, now: Date): DisputeView {
  return {
    id: r.id,
    resource_id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    email: r.email,
    fein: r.fein,
    legal_name: r.legal_name,
    dba: r.dba,
    city: r.city,
    state: r.state,
    reason: r.reason,
    created_at: iso(r.created_at)!,
    merchant_id: r.merchant_id,
    status: r.status,
    assigned_to: r.assigned_to_id ? { id: r.assigned_to_id, name: r.assigned_to_name ?? '' } : null,
    resolved_at: iso(r.resolved_at),
    resolution: r.resolution,
    comment_count: r.comment_count,
    days_open: daysOpen(r.created_at, r.resolved_at ?? now),
  };
}

/** The platform administrators' dispute queue and one dispute with its comment thread. */
export function disputeQueryHandlers(deps: QueryDeps) {
  const listDisputesHandler: Handler<typeof listDisputes> = async (req) => {
    const { page, per_page, status } = req.query;
    const statuses = STATUS_SETS[status];
    // Open work oldest first (closest to the 30-day target on top); resolved ones latest first.
    const order = status === 'resolved' ? 'd.resolved_at desc, d.id' : 'd.created_at asc, d.id';
    const [rows, counts] = await Promise.all([
      deps.pool.query<DisputeRow>(
        `${SELECT} where d.status = any($1::text[]) order by ${order} limit $2 offset $3`,
        [statuses, per_page, (page - 1) * per_page],
      ),
      deps.pool.query<{ status: DisputeView['status']; n: number }>(
        'select status, count(*)::int as n from read.disputes group by status',
      ),
    ]);
    const count = Object.fromEntries(counts.rows.map((r) => [r.status, r.n]));
    const total = statuses.reduce((sum, s) => sum + (count[s] ?? 0), 0);
    const now = new Date();
    return {
      data: rows.rows.map((r) => toView(r, now)),
      pagination: pagination(page, per_page, total),
      counts: { new: count.new ?? 0, in_review: count.in_review ?? 0, resolved: count.resolved ?? 0 },
    };
  };

  const getDisputeHandler: Handler<typeof getDispute> = async (req) => {
    const [found, comments] = await Promise.all([
      deps.pool.query<DisputeRow>(`${SELECT} where d.id = $1`, [req.params.id]),
      deps.pool.query<{ id: string; author_id: string; author_name: string; text: string; created_at: Date }>(
        `select c.id, c.author_id, coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), c.author_name) as author_name,
                c.text, c.created_at
           from read.dispute_comments c left join read.users u on u.id = c.author_id
          where c.dispute_id = $1 order by c.log_position`,
        [req.params.id],
      ),
    ]);
    const row = found.rows[0];
    if (!row) throw notFound('Dispute not found.');
    return {
      data: {
        ...toView(row, new Date()),
        explanation: row.explanation,
        resolved_by: row.resolved_by_id ? { id: row.resolved_by_id, name: row.resolved_by_name ?? '' } : null,
        resolution_note_id: row.resolution_note_id,
        resolution_merchant_id: row.resolution_merchant_id,
        comments: comments.rows.map(
          (c): DisputeCommentView => ({
            id: c.id,
            author: { id: c.author_id, name: c.author_name },
            text: c.text,
            created_at: iso(c.created_at)!,
          }),
        ),
      },
    };
  };

  return { listDisputes: listDisputesHandler, getDispute: getDisputeHandler };
}
