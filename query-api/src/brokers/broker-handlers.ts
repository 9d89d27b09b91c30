import {
  BROKER_MERCHANTS_MAX,
  BROKER_RISK_CATEGORIES,
  type BrokerMerchantView,
  type BrokerRecordView,
  brokerKey,
  type getBroker,
  type listBrokers,
} from '@mrn/contracts';
import { type Handler, notFound } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';
import { iso, pagination } from '../views.ts';

/** Whether merchant `id` carries a live note in the categories $n (across the network). */
const carries = (id: string, param: string) =>
  `exists (select 1 from read.notes n where n.merchant_id = ${id} and n.archived_at is null and n.category = any(${param}::text[]))`;

/**
 * The name a broker record shows: of the tidied spellings its live notes carry, the one on the most
 * merchants; between as many, the one reported latest (then the first in code-point order, for two
 * reports at one instant). Stable: the same notes give the same name, whatever order they came in.
 */
const SHOWN_NAME = (key: string) => `(select bn.broker_name
      from read.broker_notes bn
      join read.merchants m on m.id = bn.merchant_id and m.archived_at is null
     where bn.broker_key = ${key}
     group by bn.broker_name
     order by count(distinct bn.merchant_id) desc, max(bn.reported_at) desc, bn.broker_name collate "C"
     limit 1)`;

/**
 * Broker records ($1: the key to match; exact or contained), with the merchants they brought that are
 * still live and how many of those carry Default, Fraud or Stacking notes ($2, $3, $4). The page ($5,
 * $6) is cut before those counts and the name shown: they read every merchant's notes, so only the
 * brokers shown pay.
 */
const RECORDS = (match: 'exact' | 'contains') => `with b as (
    select bn.broker_key, max(bn.reported_at) as last_reported_at, array_agg(distinct bn.merchant_id) as merchant_ids
      from read.broker_notes bn
      join read.merchants m on m.id = bn.merchant_id and m.archived_at is null
     where ${match === 'exact' ? 'bn.broker_key = $1' : "($1::text = '' or bn.broker_key like '%' || $1 || '%')"}
     group by bn.broker_key),
  page as (
    select b.*, count(*) over ()::int as total from b
     order by cardinality(b.merchant_ids) desc, b.broker_key limit $5 offset $6)
  select p.broker_key, ${SHOWN_NAME('p.broker_key')} as broker_name, p.last_reported_at,
         cardinality(p.merchant_ids)::int as merchants,
         (select count(*) from unnest(p.merchant_ids) as x(id) where ${carries('x.id', '$2')})::int as with_default,
         (select count(*) from unnest(p.merchant_ids) as x(id) where ${carries('x.id', '$3')})::int as with_fraud,
         (select count(*) from unnest(p.merchant_ids) as x(id) where ${carries('x.id', '$4')})::int as with_stacking,
         p.total
    from page p
   order by merchants desc, p.broker_key`;

const MERCHANTS = `select m.id, m.fein, m.legal_name, m.city, m.state, m.last_note_category,
    min(bn.reported_at) as reported_at,
    ${carries('m.id', '$2')} as "default", ${carries('m.id', '$3')} as fraud, ${carries('m.id', '$4')} as stacking
  from read.broker_notes bn
  join read.merchants m on m.id = bn.merchant_id and m.archived_at is null
  where bn.broker_key = $1
  group by m.id
  order by reported_at desc, m.id
  limit ${BROKER_MERCHANTS_MAX}`;

interface RecordRow {
  broker_key: string;
  broker_name: string;
  last_reported_at: Date;
  merchants: number;
  with_default: number;
  with_fraud: number;
  with_stacking: number;
  total: number;
}

const risks = [BROKER_RISK_CATEGORIES.default, BROKER_RISK_CATEGORIES.fraud, BROKER_RISK_CATEGORIES.stacking];

const toRecord = (r: RecordRow): BrokerRecordView => ({
  broker_key: r.broker_key,
  broker_name: r.broker_name,
  merchants: r.merchants,
  with_default: r.with_default,
  with_fraud: r.with_fraud,
  with_stacking: r.with_stacking,
  last_reported_at: iso(r.last_reported_at)!,
});

/** Broker records (issue 24, PRO): the Brokers page and the record a note's broker links to. */
export function brokerHandlers(deps: QueryDeps) {
  const listBrokersHandler: Handler<typeof listBrokers> = async (req) => {
    const { page, per_page, search } = req.query;
    const { rows } = await deps.pool.query<RecordRow>(RECORDS('contains'), [
      brokerKey(search ?? ''),
      ...risks,
      per_page,
      (page - 1) * per_page,
    ]);
    return {
      data: rows.map(toRecord),
      pagination: pagination(page, per_page, rows[0]?.total ?? 0),
    };
  };

  const getBrokerHandler: Handler<typeof getBroker> = async (req) => {
    const key = brokerKey(req.params.key);
    const [records, merchants] = await Promise.all([
      deps.pool.query<RecordRow>(RECORDS('exact'), [key, ...risks, 1, 0]),
      deps.pool.query<{
        id: string;
        fein: string;
        legal_name: string;
        city: string;
        state: string;
        last_note_category: string | null;
        reported_at: Date;
        default: boolean;
        fraud: boolean;
        stacking: boolean;
      }>(MERCHANTS, [key, ...risks]),
    ]);
    const record = records.rows[0];
    if (!record) throw notFound('No merchant on the network names this broker.');
    const merchantList: BrokerMerchantView[] = merchants.rows.map((m) => ({
      resource_id: m.id,
      fein: m.fein,
      legal_name: m.legal_name,
      city: m.city,
      state: m.state,
      last_note_category: m.last_note_category,
      reported_at: iso(m.reported_at)!,
      default: m.default,
      fraud: m.fraud,
      stacking: m.stacking,
    }));
    return { data: { ...toRecord(record), merchant_list: merchantList } };
  };

  return { listBrokers: listBrokersHandler, getBroker: getBrokerHandler };
}
