import { formatEin } from '@mrn/contracts';
import type { Pool } from '@mrn/platform';
import { WATCHED_EINS, type WatchedEinRow } from '@mrn/projections/published';
import { toCsv } from '../csv.ts';
import { SIGNAL_CSV_COLUMNS, signalCsvCells } from '../signals-csv.ts';
import { SIGNAL_COLUMNS, SIGNAL_JOINS, type SignalRow, toSignals } from '../views.ts';

/** Rows read at a time: an account may watch hundreds of thousands of EINs (a 10 MB import). */
const CHUNK = 5000;

interface ExportRow extends WatchedEinRow, SignalRow {}

const COLUMNS = [
  'ein',
  'watched_since',
  'watched_until',
  'reported',
  'legal_name',
  'dba',
  'city',
  'state',
  ...SIGNAL_CSV_COLUMNS,
];

/**
 * The account's watched EINs (those starting with `search`), in EIN order, each with the live merchant
 * reported under it and its risk signals as of `asOf`, as CSV. Read by EIN in chunks on the
 * subscriptions' key, so a large watch list is never one sort of everything.
 */
export async function watchedMerchantsCsv(
  pool: Pick<Pool, 'query'>,
  accountId: string,
  search: string | undefined,
  asOf: Date,
): Promise<string> {
  const rows: ExportRow[] = [];
  for (let after = ''; ; ) {
    const { rows: chunk } = await pool.query<ExportRow>(
      `select ${WATCHED_EINS.columns}, ${SIGNAL_COLUMNS}
         ${WATCHED_EINS.from}
         ${SIGNAL_JOINS}
        where s.account_id = $1 and s.fein like $2 and s.fein > $3
        order by s.fein
        limit ${CHUNK}`,
      [accountId, `${search ?? ''}%`, after],
    );
    rows.push(...chunk);
    if (chunk.length < CHUNK) break;
    after = chunk[chunk.length - 1]!.fein;
  }
  return toCsv(
    COLUMNS,
    rows.map((r) => [
      formatEin(r.fein),
      r.created_at.toISOString(),
      r.watch_until?.toISOString() ?? '',
      r.merchant_id ? 'yes' : 'no',
      r.legal_name,
      r.dba,
      r.city,
      r.state,
      ...signalCsvCells(r.merchant_id ? toSignals(r, asOf) : null),
    ]),
  );
}
