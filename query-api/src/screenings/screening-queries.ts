import {
  type EventOf,
  type MerchantSignals,
  SCREENING_TEXTS,
  type ScreeningRowsQuery,
  type ScreeningRowView,
  type ScreeningView,
  SIGNAL_GROUP_LABELS,
  SIGNAL_GROUPS,
  type SignalGroup,
  streams,
} from '@mrn/contracts';
import { type Actor, type EventStore, notFound, type Pool, pageOf, type RecordedEvent } from '@mrn/platform';
import { iso } from '../views.ts';

// The report of a screening as its account reads it (query-api/src/screenings/screening-worker.ts keeps
// it): the summary with the exposure by category, and its rows worst first.

interface ScreeningRow {
  id: string;
  account_id: string;
  source: ScreeningView['source'];
  file_name: string | null;
  requested_by: string | null;
  total: number;
  screened: number;
  found: number;
  flagged: number;
  rejected: number;
  status: ScreeningView['status'];
  created_at: Date;
  finished_at: Date | null;
}

const SCREENING_COLUMNS = `s.id, s.account_id, s.source, s.file_name, s.total, s.screened, s.found, s.flagged, s.rejected,
  s.status, s.created_at, s.finished_at, u.first_name || ' ' || u.last_name as requested_by`;

// Per group reported on a merchant found: how many such merchants, by window.
const EXPOSURE = `select c->>'group' as "group",
    count(*) filter (where (c->>'last_90_days')::int > 0)::int as last_90_days,
    count(*) filter (where (c->>'last_12_months')::int > 0)::int as last_12_months,
    count(*)::int as ever
  from screening_rows r cross join lateral jsonb_array_elements(r.signals->'categories') c
  where r.screening_id = $1 and r.outcome = 'found'
  group by 1`;

async function exposureOf(pool: Pool, screeningId: string): Promise<ScreeningView['exposure']> {
  const { rows } = await pool.query<{
    group: SignalGroup;
    last_90_days: number;
    last_12_months: number;
    ever: number;
  }>(EXPOSURE, [screeningId]);
  return SIGNAL_GROUPS.flatMap((group) => {
    const r = rows.find((x) => x.group === group);
    return r ? [{ ...r, label: SIGNAL_GROUP_LABELS[group] }] : [];
  });
}

const toView = (r: ScreeningRow, exposure: ScreeningView['exposure']): ScreeningView => ({
  resource_id: r.id,
  status: r.status,
  source: r.source,
  file_name: r.file_name,
  requested_by: r.requested_by,
  total: r.total,
  screened: r.screened,
  found: r.found,
  flagged: r.flagged,
  rejected: r.rejected,
  created_at: iso(r.created_at)!,
  finished_at: iso(r.finished_at),
  exposure,
});

/**
 * The caller's account's screening (any account's, for a platform administrator), or a 404. One just
 * started and not yet taken in by the worker's intake is answered from its request in the log, queued:
 * the id a funder was just given works at once.
 */
export async function screeningOf(
  deps: { pool: Pool; store: EventStore },
  actor: Actor,
  id: string,
): Promise<ScreeningView> {
  const { rows } = await deps.pool.query<ScreeningRow>(
    `select ${SCREENING_COLUMNS} from screenings s left join read.users u on u.id = s.user_id where s.id = $1`,
    [id],
  );
  const r = rows[0] ?? (await requested(deps.store, id));
  if (!r || (!actor.isDmAdmin && r.account_id !== actor.accountId)) throw notFound(SCREENING_TEXTS.notFound);
  return toView(r, rows[0] ? await exposureOf(deps.pool, id) : []);
}

/** A screening as its request in the log says, before the intake has kept it. */
async function requested(store: EventStore, id: string): Promise<ScreeningRow | undefined> {
  for await (const e of store.readStream(streams.screening(id))) {
    if (e.type !== 'ScreeningRequested') continue;
    const d = (e as RecordedEvent<'ScreeningRequested', EventOf<'ScreeningRequested'>['data']>).data;
    return {
      id,
      account_id: d.accountId,
      source: d.source,
      file_name: d.fileName,
      requested_by: null,
      total: d.rows.length,
      screened: 0,
      found: 0,
      flagged: 0,
      rejected: d.rejected.length,
      status: 'queued',
      created_at: e.recordedAt,
      finished_at: null,
    };
  }
  return undefined;
}

export async function screeningsOf(
  pool: Pool,
  actor: Actor,
  page: number,
  perPage: number,
): Promise<{ views: ScreeningView[]; total: number }> {
  const { rows, total } = await pageOf<ScreeningRow>(pool, {
    select: SCREENING_COLUMNS,
    from: 'from screenings s left join read.users u on u.id = s.user_id',
    countFrom: 'from screenings s',
    where: 's.account_id = $1',
    params: [actor.accountId],
    orderBy: 's.created_at desc, s.id',
    page,
    perPage,
  });
  const views = await Promise.all(rows.map(async (r) => toView(r, await exposureOf(pool, r.id))));
  return { views, total };
}

/** The window a filter counts in, as the field of a category's signal (allow-listed: never user text in SQL). */
const WINDOW_FIELD = { '90d': 'last_90_days', '12m': 'last_12_months', ever: 'ever' } as const;

/** The rows' filter as SQL over `r`, with its values from $2 on. */
function rowFilter(filters: Omit<ScreeningRowsQuery, 'page' | 'per_page'>): {
  where: string;
  values: unknown[];
} {
  const where: string[] = [];
  const values: unknown[] = [];
  if (filters.outcome) {
    values.push(filters.outcome);
    where.push(`r.outcome = $${values.length + 1}`);
  }
  if (filters.category) {
    values.push(filters.category);
    where.push(`exists (select 1 from jsonb_array_elements(r.signals->'categories') c
      where c->>'group' = $${values.length + 1} and (c->>'${WINDOW_FIELD[filters.window]}')::int > 0)`);
  }
  return { where: where.map((w) => ` and ${w}`).join(''), values };
}

interface ReportRow {
  row_no: number;
  input: string;
  fein: string | null;
  outcome: ScreeningRowView['outcome'] | null;
  problem: string | null;
  merchant: ScreeningRowView['merchant'];
  signals: MerchantSignals | null;
}

// Worst first: merchants found by their worst group then funders, then found with nothing reported, then
// EINs not found, then rows rejected; the file's order within each.
const REPORT_ORDER = `case r.outcome when 'found' then 0 when 'not_found' then 1 else 2 end, r.worst nulls last,
  r.funders desc nulls last, r.row_no`;

export async function reportRows(
  pool: Pool,
  screeningId: string,
  filters: Omit<ScreeningRowsQuery, 'page' | 'per_page'>,
  page?: { limit: number; offset: number },
): Promise<{ rows: ScreeningRowView[]; total: number }> {
  const { where, values } = rowFilter(filters);
  const paging = page ? ` limit ${Math.trunc(page.limit)} offset ${Math.trunc(page.offset)}` : '';
  const [list, count] = await Promise.all([
    pool.query<ReportRow>(
      `select r.row_no, r.input, r.fein, r.outcome, r.problem, r.merchant, r.signals
         from screening_rows r where r.screening_id = $1 and r.outcome is not null${where}
        order by ${REPORT_ORDER}${paging}`,
      [screeningId, ...values],
    ),
    pool.query<{ n: number }>(
      `select count(*)::int as n from screening_rows r where r.screening_id = $1 and r.outcome is not null${where}`,
      [screeningId, ...values],
    ),
  ]);
  return {
    rows: list.rows.map((r) => ({
      row: r.row_no,
      input: r.input,
      fein: r.fein,
      outcome: r.outcome ?? 'not_found',
      problem: r.problem,
      merchant: r.merchant,
      signals: r.signals,
    })),
    total: count.rows[0]?.n ?? 0,
  };
}

export async function hitsOf(pool: Pool, screeningId: string): Promise<string[]> {
  const { rows } = await pool.query<{ fein: string }>(
    `select fein from screening_rows where screening_id = $1 and outcome = 'found' order by row_no`,
    [screeningId],
  );
  return rows.map((r) => r.fein);
}
