import { INQUIRY_WINDOW_DAYS, type InquiryAuditView, type merchantInquiryAudit } from '@mrn/contracts';
import { type Handler, notFound } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';
import { iso } from '../views.ts';

const DAY_MS = 86_400_000;

export const AUDIT_TEXTS = {
  lookedUp: 'Looked it up (by EIN, or a name that found only it)',
  listed: 'Listed among other merchants by a name search: not a look-up',
  platformAdmin: 'A platform administrator’s search: not counted',
  unknown: 'Recorded before the audit was kept: rebuild merchant_searches to know',
  screening: 'A portfolio screening (issue 32): a review of merchants already funded, not counted',
} as const;

interface SearchRow {
  searched_at: Date;
  account_id: string;
  looked_up: boolean | null;
  is_platform: boolean | null;
  now: Date;
  screening?: boolean;
}

/**
 * Inquiry velocity explained (issue 24, platform administrators): the searches of the last 90 days that
 * found the merchant, from the searches read model (one row per search event), each with whether it
 * counted; the funders each window counts, by label; and the figures themselves, as every funder sees
 * them but its own searches (read.inquiry_velocity(), for the platform's account, which never counts).
 */
export function inquiryAuditHandlers(deps: QueryDeps) {
  const merchantInquiryAuditHandler: Handler<typeof merchantInquiryAudit> = async (req) => {
    const merchant = await deps.pool.query<{
      last_7_days: number;
      last_30_days: number;
      last_90_days: number;
    }>(
      `select v.* from read.merchants m, read.inquiry_velocity(m.id, $2::uuid, now()) v
        where m.id = $1 and m.archived_at is null`,
      [req.params.id, req.actor.accountId],
    );
    const figures = merchant.rows[0];
    if (!figures) throw notFound('Merchant not found.');
    const { rows } = await deps.pool.query<SearchRow>(
      `select s.searched_at, s.account_id, s.looked_up, a.is_platform, now() as now
         from read.merchant_searches s left join read.accounts a on a.id = s.account_id
        where s.merchant_id = $1 and s.searched_at > now() - interval '90 days'
        order by s.searched_at desc, s.event_id`,
      [req.params.id],
    );
    // Portfolio screenings that found it: recorded for the audit, counted nowhere.
    const screened = await deps.pool.query<SearchRow>(
      `select s.created_at as searched_at, s.account_id, false as looked_up, a.is_platform, now() as now,
              true as screening
         from screening_rows r join screenings s on s.id = r.screening_id
         left join read.accounts a on a.id = s.account_id
        where r.merchant_id = $1 and s.created_at > now() - interval '90 days'`,
      [req.params.id],
    );
    rows.push(...screened.rows);
    rows.sort((a, b) => b.searched_at.getTime() - a.searched_at.getTime());
    // A label per funder, in order of first appearance, oldest first: the same funder keeps its label.
    const labels = new Map<string, string>();
    for (const r of [...rows].reverse())
      if (!r.is_platform && !labels.has(r.account_id)) labels.set(r.account_id, `Funder ${labels.size + 1}`);
    const counted = (r: SearchRow) => r.looked_up === true && !r.is_platform && !r.screening;
    const windows = INQUIRY_WINDOW_DAYS.map((days) => {
      const funders = new Set(
        rows
          .filter((r) => counted(r) && r.searched_at.getTime() > r.now.getTime() - days * DAY_MS)
          .map((r) => labels.get(r.account_id)!),
      );
      return { days, funders: [...funders].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })) };
    });
    const data: InquiryAuditView = {
      ...figures,
      windows,
      searches: rows.map((r) => ({
        searched_at: iso(r.searched_at)!,
        funder: r.is_platform ? 'Platform administrator' : labels.get(r.account_id)!,
        counted: counted(r),
        why: r.screening
          ? AUDIT_TEXTS.screening
          : r.is_platform
            ? AUDIT_TEXTS.platformAdmin
            : r.looked_up === null
              ? AUDIT_TEXTS.unknown
              : r.looked_up
                ? AUDIT_TEXTS.lookedUp
                : AUDIT_TEXTS.listed,
      })),
    };
    return { data };
  };
  return { merchantInquiryAudit: merchantInquiryAuditHandler };
}
