import {
  API_TEXTS,
  isEinSearch,
  normaliseEin,
  PARTNER_SEARCH_LIMIT,
  type PartnerSearchedMerchantWithSource,
  type partnerGetSubscription,
  type partnerSearchHistory,
  type partnerSearchMerchants,
  type partnerSearchWithAdditionalData,
  SEARCH_HISTORY_MONTHS,
} from '@mrn/contracts';
import { type Actor, forbidden, type Handler, notFound, ruleBroken } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';
import { partnerLinkedMerchantsHandler } from '../merchants/linked-merchant-handlers.ts';
import { partnerScreeningHandlers } from '../screenings/screening-handlers.ts';
import { merchantSearch, SEARCH_TEXTS } from '../search/search-handlers.ts';
import {
  NOTE_COLUMNS,
  NOTE_JOINS,
  type NoteRow,
  toInquiries,
  toMerchantView,
  toNoteView,
  toSignals,
  visibleNotes,
} from '../views.ts';

/**
 * The partner API's reads (accounts spec §7): the dashboard's search (standing, daily cap, recorded
 * with source `api`) and read models, in the partner shapes.
 */
export function partnerQueryHandlers(deps: QueryDeps) {
  const { find, byEin } = merchantSearch(deps);

  async function search(actor: Actor, key: string): Promise<PartnerSearchedMerchantWithSource[]> {
    const { shown, overflow } = await find(actor, key, PARTNER_SEARCH_LIMIT, 'api');
    if (shown.length === 0) throw notFound(SEARCH_TEXTS.noneFound);
    if (overflow) {
      const message = SEARCH_TEXTS.overflow(PARTNER_SEARCH_LIMIT);
      throw ruleBroken(message, { fields: [{ field: 'key', message }] });
    }
    // Named, on the look-ups' pool (generic plans): on every partner search, planned once per
    // connection instead of on every call. Two texts, one per kind of caller.
    const { rows } = await deps.lookups.query<NoteRow>({
      name: actor.isDmAdmin ? 'mrn_partner_notes_admin' : 'mrn_partner_notes',
      text: `select ${NOTE_COLUMNS} from read.notes n ${NOTE_JOINS}
        where n.merchant_id = any($1::uuid[]) and n.archived_at is null and ${visibleNotes(actor)}
        order by n.created_at desc, n.id`,
      values: [shown.map((m) => m.id)],
    });
    return shown.map((m) => {
      const view = toMerchantView(m, actor, new Set());
      return {
        fein: view.fein,
        legal_name: view.legal_name,
        dba: view.dba,
        street1: view.street1,
        street2: view.street2,
        city: view.city,
        state: view.state,
        business_phone: view.business_phone,
        business_startdate: view.business_startdate,
        industry: view.industry,
        created_at: view.created_at,
        added_by: view.added_by,
        inquiries: toInquiries(m, actor),
        signals: toSignals(m),
        notes: rows
          .filter((n) => n.merchant_id === m.id)
          .map((n) => {
            const note = toNoteView(n, actor);
            return {
              note_category: note.category,
              note: note.note,
              created_at: note.created_at,
              added_by: note.added_by,
              submission_source: note.submission_source,
              broker_name: note.broker_name,
            };
          }),
      };
    });
  }

  const searchHandler: Handler<typeof partnerSearchMerchants> = async (req) => {
    const found = await search(req.actor, req.params.key);
    // Submission sources are PRO data (accounts spec §1): this call leaves them out for everyone.
    return {
      errors: [],
      data: found.map((m) => ({
        ...m,
        notes: m.notes.map(({ submission_source: _s, broker_name: _b, ...note }) => note),
      })),
    };
  };

  const searchWithSourceHandler: Handler<typeof partnerSearchWithAdditionalData> = async (req) => ({
    errors: [],
    data: await search(req.actor, req.params.key),
  });

  const getSubscriptionHandler: Handler<typeof partnerGetSubscription> = async (req) => {
    const { rows } = await deps.pool.query<{ enabled: boolean; created_at: Date | null }>(
      `select a.merchant_subscription_enabled as enabled, s.created_at
         from read.accounts a
         left join read.merchant_subscriptions s on s.account_id = a.id and s.fein = $2
        where a.id = $1`,
      [req.actor.accountId, req.params.fein],
    );
    if (!rows[0]?.enabled) throw forbidden(API_TEXTS.subscriptionsOnly);
    const since = rows[0].created_at;
    return {
      errors: [],
      data: { fein: req.params.fein, subscribed: since !== null, created_at: since?.toISOString() ?? null },
    };
  };

  const searchHistoryHandler: Handler<typeof partnerSearchHistory> = async (req) => {
    const fein = req.params.fein;
    // As the dashboard's search counts: a reported merchant's searches (by EIN or name), else the EIN's.
    const merchant = isEinSearch(fein) ? await byEin(normaliseEin(fein)) : [];
    const { rows } = merchant[0]
      ? await deps.pool.query<{ searched_at: Date }>(
          `select searched_at from read.merchant_searches
            where merchant_id = $1 and searched_at > now() - make_interval(months => $2) order by searched_at desc`,
          [merchant[0].id, SEARCH_HISTORY_MONTHS],
        )
      : await deps.pool.query<{ searched_at: Date }>(
          `select searched_at from read.ein_searches
            where fein = $1 and searched_at > now() - make_interval(months => $2) order by searched_at desc`,
          [fein, SEARCH_HISTORY_MONTHS],
        );
    return {
      errors: [],
      data: { fein, searches: rows.map((r) => ({ created_at: r.searched_at.toISOString() })) },
    };
  };

  return {
    partnerSearchMerchants: searchHandler,
    partnerSearchWithAdditionalData: searchWithSourceHandler,
    partnerGetSubscription: getSubscriptionHandler,
    partnerSearchHistory: searchHistoryHandler,
    partnerLinkedMerchants: partnerLinkedMerchantsHandler(deps),
    ...partnerScreeningHandlers(deps),
  };
}
