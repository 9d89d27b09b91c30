import {
  LINKED_FOUND_WITHIN_DAYS,
  LINKED_MERCHANTS_MAX,
  LINKED_TEXTS,
  type LinkedMerchantView,
  type LinkKind,
  type listLinkedMerchants,
  type partnerLinkedMerchants,
  seesProData,
  worstGroup,
} from '@mrn/contracts';
import { type Actor, forbidden, type Handler, notFound } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';
import { merchantSearch, SEARCH_TEXTS } from '../search/search-handlers.ts';
import { iso } from '../views.ts';

/**
 * Other live merchants sharing a link key (normalised phone or street address) with the merchant $1,
 * newest first, each with every kind it shares: possibly the same business under another EIN (issue 24).
 */
const LINKED = `select m.id, m.fein, m.legal_name, m.dba, m.city, m.state, m.last_note_category, m.created_at,
    array_agg(distinct o.kind order by o.kind) as shared, s.reports
  from read.merchant_link_keys mine
  join read.merchant_link_keys o on o.kind = mine.kind and o.key = mine.key and o.merchant_id <> mine.merchant_id
  join read.merchants m on m.id = o.merchant_id and m.archived_at is null
  left join read.merchant_signals s on s.merchant_id = m.id
  where mine.merchant_id = $1
  group by m.id, s.merchant_id
  order by m.created_at desc, m.id
  limit ${LINKED_MERCHANTS_MAX}`;

interface LinkedRow {
  id: string;
  fein: string;
  legal_name: string;
  dba: string | null;
  city: string;
  state: string;
  last_note_category: string | null;
  created_at: Date;
  shared: LinkKind[];
  /** Its risk signals' report times by group (read.merchant_signals), null when nothing counts. */
  reports: Record<string, number[]> | null;
}

const seesPro = (actor: Actor) =>
  seesProData({ planLevel: actor.planLevel, isPlatformAdmin: actor.isDmAdmin });

/** Linked merchants as both APIs list them. */
function linkedMerchants(deps: QueryDeps) {
  /** `proData`: the worst category of each (issue 32) is PRO's, as inquiry velocity is. */
  async function linkedTo(merchantId: string, proData: boolean): Promise<LinkedMerchantView[]> {
    const { rows } = await deps.pool.query<LinkedRow>({
      name: 'mrn_linked_merchants',
      text: LINKED,
      values: [merchantId],
    });
    return rows.map((r) => ({
      resource_id: r.id,
      fein: r.fein,
      legal_name: r.legal_name,
      dba: r.dba,
      city: r.city,
      state: r.state,
      shared: r.shared,
      last_note_category: r.last_note_category,
      worst_category: proData ? worstGroup(Object.keys(r.reports ?? {})) : null,
      created_at: iso(r.created_at)!,
    }));
  }

  /** The live merchant with this id or EIN, or a 404. */
  async function liveMerchant(where: 'id' | 'fein', value: string): Promise<string> {
    const { rows } = await deps.pool.query<{ id: string }>(
      `select id from read.merchants where ${where} = $1 and archived_at is null`,
      [value],
    );
    if (!rows[0]) throw notFound('Merchant not found.');
    return rows[0].id;
  }

  return { linkedTo, liveMerchant };
}

/** Whether the account found merchant $1 by a search of its own ($2) in the last days. */
const FOUND_BY_ACCOUNT = `select exists (select 1 from read.merchant_searches
    where merchant_id = $1 and account_id = $2
      and searched_at > now() - make_interval(days => ${LINKED_FOUND_WITHIN_DAYS})) as found`;

/**
 * The dashboard's list on the merchant page. Linked merchants are what a search answers (issue 30, item
 * 6: a look-up by id answered for any merchant, outside the daily cap and the contribution lock), so the
 * list is shown for a merchant the account found by a search recently, while it may search; platform
 * administrators see every list.
 */
export function linkedMerchantHandlers(deps: QueryDeps) {
  const { linkedTo, liveMerchant } = linkedMerchants(deps);
  const { standingOf } = merchantSearch(deps);
  async function mayLookUp(actor: Actor, merchantId: string): Promise<void> {
    if (actor.isDmAdmin) return;
    if ((await standingOf(actor))?.locked_out) throw forbidden(SEARCH_TEXTS.lowContribution);
    const { rows } = await deps.pool.query<{ found: boolean }>({
      name: 'mrn_linked_found_by_account',
      text: FOUND_BY_ACCOUNT,
      values: [merchantId, actor.accountId],
    });
    if (!rows[0]?.found) throw forbidden(LINKED_TEXTS.searchFirst);
  }
  const listLinkedMerchantsHandler: Handler<typeof listLinkedMerchants> = async (req) => {
    const merchantId = await liveMerchant('id', req.params.id);
    await mayLookUp(req.actor, merchantId);
    return { data: await linkedTo(merchantId, seesPro(req.actor)) };
  };
  return { listLinkedMerchants: listLinkedMerchantsHandler };
}

/**
 * The partner API's, by EIN (in the sandbox too: it mounts the partner handlers alone): a search of the
 * EIN, with every rule of one (the contribution lock, the daily cap, recorded with source `api`), then
 * the merchant it found's links.
 */
export function partnerLinkedMerchantsHandler(deps: QueryDeps): Handler<typeof partnerLinkedMerchants> {
  const { linkedTo } = linkedMerchants(deps);
  const { find } = merchantSearch(deps);
  return async (req) => {
    const { shown } = await find(req.actor, req.params.fein, 1, 'api');
    if (!shown[0]) throw notFound('Merchant not found.');
    return {
      errors: [],
      data: (await linkedTo(shown[0].id, seesPro(req.actor))).map(
        ({ resource_id: _id, ...linked }) => linked,
      ),
    };
  };
}
