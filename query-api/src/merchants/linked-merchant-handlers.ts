import {
  LINKED_MERCHANTS_MAX,
  type LinkedMerchantView,
  type LinkKind,
  type listLinkedMerchants,
  type partnerLinkedMerchants,
} from '@mrn/contracts';
import { type Handler, notFound } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';
import { iso } from '../views.ts';

/**
 * Other live merchants sharing a link key (normalised phone or street address) with the merchant $1,
 * newest first, each with every kind it shares: possibly the same business under another EIN (issue 24).
 */
const LINKED = `select m.id, m.fein, m.legal_name, m.dba, m.city, m.state, m.last_note_category, m.created_at,
    array_agg(distinct o.kind order by o.kind) as shared
  from read.merchant_link_keys mine
  join read.merchant_link_keys o on o.kind = mine.kind and o.key = mine.key and o.merchant_id <> mine.merchant_id
  join read.merchants m on m.id = o.merchant_id and m.archived_at is null
  where mine.merchant_id = $1
  group by m.id
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
}

/** Linked merchants as both APIs list them. */
function linkedMerchants(deps: QueryDeps) {
  async function linkedTo(merchantId: string): Promise<LinkedMerchantView[]> {
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

/** The dashboard's list on the merchant page. */
export function linkedMerchantHandlers(deps: QueryDeps) {
  const { linkedTo, liveMerchant } = linkedMerchants(deps);
  const listLinkedMerchantsHandler: Handler<typeof listLinkedMerchants> = async (req) => ({
    data: await linkedTo(await liveMerchant('id', req.params.id)),
  });
  return { listLinkedMerchants: listLinkedMerchantsHandler };
}

/** The partner API's, by EIN (in the sandbox too: it mounts the partner handlers alone). */
export function partnerLinkedMerchantsHandler(deps: QueryDeps): Handler<typeof partnerLinkedMerchants> {
  const { linkedTo, liveMerchant } = linkedMerchants(deps);
  return async (req) => ({
    errors: [],
    data: (await linkedTo(await liveMerchant('fein', req.params.fein))).map(
      ({ resource_id: _id, ...linked }) => linked,
    ),
  });
}
