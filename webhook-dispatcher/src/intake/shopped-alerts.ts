import { createHash } from 'node:crypto';
import { SHOPPED_WINDOW_DAYS } from '@mrn/contracts';
import type { PoolClient, RecordedEvent } from '@mrn/platform';

// "Being shopped" (issue 24; issue 30, item 7): a watcher is alerted when the distinct other funders that
// looked a watched merchant up within 7 days reach its threshold, judged against its threshold as it is
// whenever either side changes, in log order inside the intake's batch transaction:
//  - a search that looked the merchant up (each watcher with a threshold, watching at the search's time,
//    the searcher excepted);
//  - the watcher's threshold saved with another value (every merchant it watches), switched on included;
//  - a watch started (the merchants of the EINs the account did not watch at the event's time).
// Once per crossing: `webhook_shopped_alerts` holds the watchers alerted in the current episode, and a
// judgement that finds the figure below the threshold ends it. The figure also falls with time alone (no
// event): a judgement compares the figure just before the event too, so an episode that ended silently
// is over even when its row is still there.

/**
 * One side of a judgement: `count` distinct other funders in the 7 days ending at the event, against
 * `threshold` (null: the watcher's alerts are off, or it does not watch the merchant).
 */
export interface ShoppedFigure {
  count: number;
  threshold: number | null;
}

const reached = (f: ShoppedFigure) => f.threshold !== null && f.count >= f.threshold;

/**
 * The rule, from the figure just before and just after an event and whether the watcher was alerted in
 * the current episode: below the threshold after it, the episode is over (no alert, not alerted). At or
 * above it, an alert unless the watcher was alerted and the figure was already at or above its threshold
 * just before (the same episode); either way it is then alerted. So a funder already counted searching
 * again (nothing changes) never alerts, a threshold raised above the figure ends the episode (and lowered
 * to it again alerts), alerts turned off end it (and turned on above the threshold alert), and a watch
 * started above the threshold alerts once.
 */
export function judgeShopped(
  before: ShoppedFigure,
  after: ShoppedFigure,
  alerted: boolean,
): { alert: boolean; alerted: boolean } {
  if (!reached(after)) return { alert: false, alerted: false };
  return { alert: !(alerted && reached(before)), alerted: true };
}

/** An alert to send to one watcher (the payload's figures are as of the event). */
export interface ShoppedAlert {
  /**
   * The outbox rows' event id (`webhook_deliveries_once`): the search's own id; for an event that judges
   * several merchants (a threshold change, a watch of several EINs) one derived from it and the merchant.
   */
  key: string;
  accountId: string;
  merchantId: string;
  fein: string;
  name: string;
  threshold: number;
  last7: number;
  last30: number;
  last90: number;
}

/** A watcher and merchant judged: the figure before and after the event, as the statements return it. */
interface Judged {
  account_id: string;
  merchant_id: string;
  fein: string;
  name: string;
  alerted: boolean;
  before_7: number;
  threshold_before: number | null;
  last_7: number;
  last_30: number;
  last_90: number;
  threshold: number | null;
}

const DAYS_7 = `interval '${SHOPPED_WINDOW_DAYS} days'`;

/** Whether watcher `account` was alerted for `merchant` in the current episode (SQL expressions). */
const alertedSql = (account: string, merchant: string) =>
  `exists (select 1 from webhook_shopped_alerts s where s.account_id = ${account} and s.merchant_id = ${merchant})`;

/**
 * Distinct funders other than `watcher` that looked `merchant` up in the 7, 30 and 90 days ending at
 * `at` (each funder's latest look-up, webhook_inquiries), as a lateral subquery.
 */
const otherFunders = (merchant: string, watcher: string, at: string) => `(
    select count(*) filter (where i.last_searched_at > ${at}::timestamptz - ${DAYS_7})::int as last_7,
           count(*) filter (where i.last_searched_at > ${at}::timestamptz - interval '30 days')::int as last_30,
           count(*)::int as last_90
      from webhook_inquiries i
     where i.merchant_id = ${merchant} and i.account_id <> ${watcher}
       and i.last_searched_at > ${at}::timestamptz - interval '90 days')`;

/**
 * A search by $2 that looked merchant $1 up at $3: the look-up recorded, and the watchers it judges, with
 * the figure before it (the searcher counted only if it already was) and after it (the searcher counted).
 * One round trip per search, as before this rule. Every part of a statement sees the rows as they were
 * before it, so the counts do not see this search's own row. A search whose funder has a look-up at or
 * after its time already recorded changes no figure and is not judged: that is also every search when
 * the log is read again from an earlier checkpoint, so nothing is alerted twice.
 */
const SEARCH = `with watchers as (
    select w.account_id, a.shopped_threshold as threshold, m.fein, m.name
      from webhook_merchants m
      join webhook_watches w on w.fein = m.fein
      join webhook_accounts a on a.account_id = w.account_id
     where m.merchant_id = $1 and w.account_id <> $2 and a.shopped_threshold is not null
       and (w.watch_until is null or w.watch_until > $3)
       and not exists (select 1 from webhook_inquiries i
                        where i.merchant_id = $1 and i.account_id = $2 and i.last_searched_at >= $3)
  ), recorded as (
    insert into webhook_inquiries (merchant_id, account_id, last_searched_at) values ($1, $2, $3)
    on conflict (merchant_id, account_id) do update
      set last_searched_at = greatest(webhook_inquiries.last_searched_at, excluded.last_searched_at))
  select w.account_id, $1::uuid as merchant_id, w.fein, w.name, ${alertedSql('w.account_id', '$1')} as alerted,
         c.before_7, w.threshold as threshold_before, c.last_7, c.last_30, c.last_90, w.threshold
    from watchers w
    cross join lateral (
      select count(*) filter (where i.last_searched_at > $3::timestamptz - ${DAYS_7})::int as before_7,
             1 + count(*) filter (where i.account_id <> $2 and i.last_searched_at > $3::timestamptz - ${DAYS_7})::int as last_7,
             1 + count(*) filter (where i.account_id <> $2 and i.last_searched_at > $3::timestamptz - interval '30 days')::int as last_30,
             1 + count(*) filter (where i.account_id <> $2)::int as last_90
        from webhook_inquiries i
       where i.merchant_id = $1 and i.account_id <> w.account_id
         and i.last_searched_at > $3::timestamptz - interval '90 days') c`;

/** Judges the watchers of the merchant a search looked up, and records the look-up. */
export async function judgeSearch(
  tx: PoolClient,
  e: RecordedEvent,
  search: { merchantId: string; accountId: string },
): Promise<ShoppedAlert[]> {
  const { rows } = await tx.query<Judged>({
    name: 'mrn_shopped_search',
    text: SEARCH,
    values: [search.merchantId, search.accountId, e.recordedAt],
  });
  return settle(tx, e, rows, () => e.id);
}

/**
 * Marks account $1's threshold change or watch start at log position `position` (time `at`) judged, where
 * it is news: not at or before one judged already (the log read again from an earlier checkpoint), nor
 * from before this rule was adopted for the account (migration 0007). No row updated: not judged.
 */
const markJudged = (
  position: string,
  at: string,
) => `update webhook_accounts set shopped_position = ${position}
   where account_id = $1 and (shopped_position is null or shopped_position collate "C" < ${position})
     and (shopped_judged_from is null or shopped_judged_from < ${at})`;

/** Every merchant account $1 watches at $2 that could be alerted or was, with the figure at $2 (threshold $3). */
const WATCHED = `select * from (
    select $1::uuid as account_id, m.merchant_id, m.fein, m.name, ${alertedSql('$1', 'm.merchant_id')} as alerted,
           c.last_7, c.last_30, c.last_90
      from webhook_watches w
      join webhook_merchants m on m.fein = w.fein
      cross join lateral ${otherFunders('m.merchant_id', '$1', '$2')} c
     where w.account_id = $1 and (w.watch_until is null or w.watch_until > $2)) j
  where j.last_7 >= $3 or j.alerted`;

/**
 * The account saved its threshold with another value (`before` → `after`, null: off): every merchant it
 * watches is judged against the new one. Turned off, every episode of the account is over.
 */
export async function judgeThresholdChange(
  tx: PoolClient,
  e: RecordedEvent,
  change: { accountId: string; before: number | null; after: number | null },
): Promise<ShoppedAlert[]> {
  if (change.before === change.after) return [];
  const news = await tx.query(markJudged('$2', '$3'), [change.accountId, e.position, e.recordedAt]);
  if (news.rowCount === 0) return [];
  if (change.after === null) {
    await tx.query('delete from webhook_shopped_alerts where account_id = $1', [change.accountId]);
    return [];
  }
  const { rows } = await tx.query<Omit<Judged, 'before_7' | 'threshold_before' | 'threshold'>>(WATCHED, [
    change.accountId,
    e.recordedAt,
    change.after,
  ]);
  return settle(
    tx,
    e,
    rows.map((r) => ({ ...r, before_7: r.last_7, threshold_before: change.before, threshold: change.after })),
    (r) => alertKey(e.id, r.merchant_id),
  );
}

/**
 * The account's watches recorded ($1 account, $2 EINs, $3 their end or null, $4 the event's time, $5 its
 * position), and the merchants whose watch starts with it: an EIN it did not watch at the event's time
 * (not at all, or a search watch that had ended), watched after it. An EIN watched already is recorded
 * again only to change its end: nothing starts. One statement, as the watches' upsert was alone.
 */
const WATCH = `with prev as (
    select fein from webhook_watches
     where account_id = $1 and fein = any($2::text[]) and (watch_until is null or watch_until > $4)
  ), saved as (
    insert into webhook_watches (account_id, fein, watch_until) select $1, f, $3 from unnest($2::text[]) as f
    on conflict (fein, account_id) do update set watch_until = excluded.watch_until
  ), started as (
    select f as fein from unnest($2::text[]) as f
     where ($3::timestamptz is null or $3::timestamptz > $4) and f not in (select fein from prev)
  ), account as (
    ${markJudged('$5', '$4')} and exists (select 1 from started)
    returning shopped_threshold as threshold
  )
  select $1::uuid as account_id, m.merchant_id, m.fein, m.name, ${alertedSql('$1', 'm.merchant_id')} as alerted,
         c.last_7, c.last_30, c.last_90, a.threshold
    from account a
    join started s on a.threshold is not null
    join webhook_merchants m on m.fein = s.fein
    cross join lateral ${otherFunders('m.merchant_id', '$1', '$4')} c`;

/** Records an account's watches (MerchantSubscriptionsAdded) and judges the merchants whose watch starts. */
export async function recordWatches(
  tx: PoolClient,
  e: RecordedEvent,
  d: { accountId: string; feins: readonly string[]; watchUntil?: string | undefined },
): Promise<ShoppedAlert[]> {
  const { rows } = await tx.query<Omit<Judged, 'before_7' | 'threshold_before'>>({
    name: 'mrn_shopped_watch',
    text: WATCH,
    values: [d.accountId, d.feins, d.watchUntil ?? null, e.recordedAt, e.position],
  });
  // Before the event the account did not watch the merchant: no episode of it was running.
  return settle(
    tx,
    e,
    rows.map((r) => ({ ...r, before_7: 0, threshold_before: null })),
    (r) => alertKey(e.id, r.merchant_id),
  );
}

/** Applies the rule to each judged watcher: its episodes' rows written (one statement, if any changed). */
async function settle(
  tx: PoolClient,
  e: RecordedEvent,
  rows: readonly Judged[],
  keyOf: (r: Judged) => string,
): Promise<ShoppedAlert[]> {
  const alerts: ShoppedAlert[] = [];
  const changes: { account_id: string; merchant_id: string; alerted: boolean }[] = [];
  for (const r of rows) {
    const j = judgeShopped(
      { count: r.before_7, threshold: r.threshold_before },
      { count: r.last_7, threshold: r.threshold },
      r.alerted,
    );
    if (j.alert || j.alerted !== r.alerted)
      changes.push({ account_id: r.account_id, merchant_id: r.merchant_id, alerted: j.alerted });
    if (j.alert)
      alerts.push({
        key: keyOf(r),
        accountId: r.account_id,
        merchantId: r.merchant_id,
        fein: r.fein,
        name: r.name,
        threshold: r.threshold!,
        last7: r.last_7,
        last30: r.last_30,
        last90: r.last_90,
      });
  }
  if (changes.length > 0) {
    await tx.query(
      `with c as (
         select * from jsonb_to_recordset($1::jsonb) as r(account_id uuid, merchant_id uuid, alerted boolean)
       ), ended as (
         delete from webhook_shopped_alerts s using c
          where not c.alerted and s.account_id = c.account_id and s.merchant_id = c.merchant_id)
       insert into webhook_shopped_alerts (account_id, merchant_id, alerted_at)
       select account_id, merchant_id, $2 from c where alerted
       on conflict (account_id, merchant_id) do update set alerted_at = excluded.alerted_at`,
      [JSON.stringify(changes), e.recordedAt],
    );
  }
  return alerts;
}

/** A UUID of its own for the alert of `merchantId` at event `eventId`: the same when the log is read again. */
function alertKey(eventId: string, merchantId: string): string {
  const h = createHash('sha256').update(`merchant.shopped:${eventId}:${merchantId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
