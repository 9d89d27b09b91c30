import {
  DELETED_MERCHANT_SORT,
  type getDeletedMerchant,
  type getMerchant,
  isEinSearch,
  type listDeletedMerchants,
  type listDeletedNotes,
  type listMerchantNotes,
  type listMerchants,
  type listReportedNotes,
  MERCHANT_SORT,
  normaliseEin,
  REPORTED_NOTE_SORT,
  type recentNotes,
} from '@mrn/contracts';
import { type Actor, type Handler, notFound, pageOf } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';
import { orderBy, type SortOrders } from '../sorting.ts';
import {
  foldForSearch,
  INQUIRY_COLUMNS,
  INQUIRY_JOIN,
  type InquiryRow,
  iso,
  keywordScan,
  keywordWords,
  likeEscape,
  MERCHANT_COLUMNS,
  MERCHANT_JOINS,
  type MerchantRow,
  NOTE_COLUMNS,
  NOTE_JOINS,
  type NoteRow,
  pagination,
  SIGNAL_COLUMNS,
  SIGNAL_JOINS,
  type SignalRow,
  toMerchantView,
  toNoteView,
  toSearchedMerchantView,
  visibleNotes,
  watchedFeins,
} from '../views.ts';

/** The admin lists' search box: an EIN, or words of the name/DBA. */
function listFilter(
  search: string | undefined,
  archived: boolean,
  firstParam: number,
): { sql: string; params: unknown[] } {
  if (!search) return { sql: 'true', params: [] };
  if (isEinSearch(search)) return { sql: `m.fein = $${firstParam}`, params: [normaliseEin(search)] };
  // Archived merchants are few and have left the keyword index.
  if (archived)
    return { sql: `m.search_text like $${firstParam}`, params: [`%${likeEscape(foldForSearch(search))}%`] };
  const words = keywordWords(search);
  if (words.length === 0) return { sql: 'false', params: [] };
  const [from, to, likes, starts] = keywordScan(words);
  const [a, b, c, d] = [firstParam, firstParam + 1, firstParam + 2, firstParam + 3];
  return {
    sql: `m.id in (select w.merchant_id from read.merchant_words w
                    where w.word >= $${a} and w.word < $${b} and w.name like all($${c}::text[])
                      and w.name ~ all($${d}::text[]))`,
    params: [from, to, likes, starts],
  };
}

// The admin lists' sortable columns. Each ends on the id, so a page boundary never falls between equal
// values differently from one request to the next, and each is an order an index gives, read forwards
// or backwards: merchants_name_live (lower(legal_name), id), merchants_fein_live (fein, unique),
// merchants_created (created_at desc, id), merchants_archived (archived_at desc, id), notes_reported
// (deletion_requested_at desc, id); hence the id's direction opposite a date's.
const other = (d: 'asc' | 'desc') => (d === 'asc' ? 'desc' : 'asc');
const BY_NAME = (d: 'asc' | 'desc') => `lower(m.legal_name) ${d}, m.id ${d}`;
const BY_EIN = (d: 'asc' | 'desc') => `m.fein ${d}, m.id ${d}`;
const LIVE_MERCHANT_ORDERS: SortOrders<keyof typeof MERCHANT_SORT.columns> = {
  name: BY_NAME,
  ein: BY_EIN,
  added: (d) => `m.created_at ${d}, m.id ${other(d)}`,
};
const DELETED_MERCHANT_ORDERS: SortOrders<keyof typeof DELETED_MERCHANT_SORT.columns> = {
  name: BY_NAME,
  ein: BY_EIN,
  deleted: (d) => `m.archived_at ${d}, m.id ${other(d)}`,
};
const REPORTED_NOTE_ORDERS: SortOrders<keyof typeof REPORTED_NOTE_SORT.columns> = {
  name: (d) => `lower(m.legal_name) ${d}, n.deletion_requested_at desc, n.id`,
  ein: (d) => `m.fein ${d}, n.deletion_requested_at desc, n.id`,
  reported: (d) => `n.deletion_requested_at ${d}, n.id ${other(d)}`,
  category: (d) => `n.category ${d}, n.deletion_requested_at desc, n.id`,
  reported_by: (d) =>
    `lower(ru.first_name || ' ' || ru.last_name) ${d} nulls last, lower(ra.name) ${d}, n.deletion_requested_at desc, n.id`,
};

export function merchantQueryHandlers(deps: QueryDeps) {
  async function merchantPage(
    archived: boolean,
    q: { page: number; per_page: number; search?: string | undefined },
    order: string,
    actor: Actor,
  ) {
    const filter = listFilter(q.search, archived, 1);
    const where = `${archived ? 'm.archived_at is not null' : 'm.archived_at is null'} and ${filter.sql}`;
    const { rows, total } = await pageOf<MerchantRow>(deps.pool, {
      select: MERCHANT_COLUMNS,
      from: `from read.merchants m ${MERCHANT_JOINS}`,
      countFrom: 'from read.merchants m',
      where,
      params: filter.params,
      orderBy: order,
      page: q.page,
      perPage: q.per_page,
    });
    const watched = await watchedFeins(
      deps.pool,
      actor,
      rows.map((r) => r.fein),
    );
    return {
      data: rows.map((r) => toMerchantView(r, actor, watched)),
      pagination: pagination(q.page, q.per_page, total),
    };
  }

  async function merchantRow(id: string, archived: boolean): Promise<MerchantRow> {
    const { rows } = await deps.pool.query<MerchantRow>(
      `select ${MERCHANT_COLUMNS} from read.merchants m ${MERCHANT_JOINS}
        where m.id = $1 and ${archived ? 'm.archived_at is not null' : 'm.archived_at is null'}`,
      [id],
    );
    if (!rows[0]) throw notFound('Merchant not found.');
    return rows[0];
  }

  async function notesOf(merchantId: string, actor: Actor, archived: boolean) {
    const { rows } = await deps.pool.query<NoteRow>(
      `select ${NOTE_COLUMNS} from read.notes n ${NOTE_JOINS}
        where n.merchant_id = $1 and ${archived ? 'true' : 'n.archived_at is null'} and ${visibleNotes(actor)}
        order by n.created_at desc, n.id`,
      [merchantId],
    );
    return rows.map((r) => toNoteView(r, actor, !archived));
  }

  const listMerchantsHandler: Handler<typeof listMerchants> = async (req) =>
    merchantPage(false, req.query, orderBy(MERCHANT_SORT, req.query, LIVE_MERCHANT_ORDERS), req.actor);
  const listDeletedMerchantsHandler: Handler<typeof listDeletedMerchants> = async (req) =>
    merchantPage(
      true,
      req.query,
      orderBy(DELETED_MERCHANT_SORT, req.query, DELETED_MERCHANT_ORDERS),
      req.actor,
    );

  const oneMerchant = async (id: string, archived: boolean, actor: Actor) => {
    const row = await merchantRow(id, archived);
    return { data: toMerchantView(row, actor, await watchedFeins(deps.pool, actor, [row.fein])) };
  };
  // A live merchant's page: with its inquiry velocity for the viewer (issue 24).
  const getMerchantHandler: Handler<typeof getMerchant> = async (req) => {
    const { rows } = await deps.pool.query<MerchantRow & InquiryRow & SignalRow>(
      `select ${MERCHANT_COLUMNS}, ${INQUIRY_COLUMNS}, ${SIGNAL_COLUMNS} from read.merchants m ${MERCHANT_JOINS} ${INQUIRY_JOIN} ${SIGNAL_JOINS}
        where m.id = $2 and m.archived_at is null`,
      [req.actor.accountId, req.params.id],
    );
    const row = rows[0];
    if (!row) throw notFound('Merchant not found.');
    return {
      data: toSearchedMerchantView(row, req.actor, await watchedFeins(deps.pool, req.actor, [row.fein])),
    };
  };
  const getDeletedMerchantHandler: Handler<typeof getDeletedMerchant> = (req) =>
    oneMerchant(req.params.id, true, req.actor);

  const listMerchantNotesHandler: Handler<typeof listMerchantNotes> = async (req) => {
    await merchantRow(req.params.id, false);
    return { data: await notesOf(req.params.id, req.actor, false) };
  };
  const listDeletedNotesHandler: Handler<typeof listDeletedNotes> = async (req) => {
    await merchantRow(req.params.id, true);
    return { data: await notesOf(req.params.id, req.actor, true) };
  };

  const listReportedNotesHandler: Handler<typeof listReportedNotes> = async (req) => {
    const { page, per_page } = req.query;
    const where = 'n.deletion_requested_at is not null and n.archived_at is null';
    const order = orderBy(REPORTED_NOTE_SORT, req.query, REPORTED_NOTE_ORDERS);
    const { rows, total } = await pageOf<
      NoteRow & { legal_name: string; fein: string; reporter: string | null }
    >(deps.pool, {
      select: `${NOTE_COLUMNS}, m.legal_name, m.fein, ru.first_name || ' ' || ru.last_name || ' (' || ra.name || ')' as reporter`,
      from: `from read.notes n ${NOTE_JOINS}
           join read.merchants m on m.id = n.merchant_id
           left join read.users ru on ru.id = n.deletion_requested_by
           left join read.accounts ra on ra.id = n.deletion_requested_account`,
      countFrom: 'from read.notes n',
      where,
      orderBy: order,
      page,
      perPage: per_page,
    });
    return {
      data: rows.map((r) => ({
        ...toNoteView(r, req.actor),
        reason: r.deletion_reason ?? '',
        reported_at: iso(r.deletion_requested_at)!,
        reported_by: r.reporter ?? '',
        merchant: { resource_id: r.merchant_id, legal_name: r.legal_name, fein: r.fein },
      })),
      pagination: pagination(page, per_page, total),
    };
  };

  const recentNotesHandler: Handler<typeof recentNotes> = async (req) => {
    const { page, per_page, category } = req.query;
    const params: unknown[] = [];
    let where = `n.archived_at is null and ${visibleNotes(req.actor)}`;
    if (category) {
      params.push(category);
      where += ` and n.category = $${params.length}`;
    }
    const { rows, total } = await pageOf<NoteRow & { legal_name: string; fein: string }>(deps.pool, {
      select: `${NOTE_COLUMNS}, m.legal_name, m.fein`,
      from: `from read.notes n ${NOTE_JOINS}
           join read.merchants m on m.id = n.merchant_id`,
      countFrom: 'from read.notes n',
      where,
      params,
      orderBy: 'n.created_at desc, n.id',
      page,
      perPage: per_page,
    });
    return {
      data: rows.map((r) => ({
        ...toNoteView(r, req.actor),
        merchant: { resource_id: r.merchant_id, legal_name: r.legal_name, fein: r.fein },
      })),
      pagination: pagination(page, per_page, total),
    };
  };

  return {
    listMerchants: listMerchantsHandler,
    listDeletedMerchants: listDeletedMerchantsHandler,
    getMerchant: getMerchantHandler,
    getDeletedMerchant: getDeletedMerchantHandler,
    listMerchantNotes: listMerchantNotesHandler,
    listDeletedNotes: listDeletedNotesHandler,
    listReportedNotes: listReportedNotesHandler,
    recentNotes: recentNotesHandler,
  };
}
