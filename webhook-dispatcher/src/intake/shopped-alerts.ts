import { createHash } from 'node:crypto';
import { SHOPPED_WINDOW_DAYS } from '@mrn/contracts';
import { type PoolClient, type Position, type RecordedEvent, readCheckpoint } from '@mrn/platform';
import { LOOKUPS_CHECKPOINT } from '../checkpoint.ts';

// "Being shopped" (issue 24; issue 30, item 7): a watcher is alerted when the distinct other funders that
// looked a watched merchant up within 7 days reach its threshold, judged against its threshold as it is
// whenever either side changes:
//  - a look-up of the merchant (each watcher with a threshold, watching at the look-up's time, the
//    searcher excepted): the look-ups reader (watched-lookups.ts) follows projections' feed of them
//    (read.watched_lookups) in the search log's order, no search being read here (issue 31);
//  - the watcher's threshold saved with another value (every merchant it watches), switched on included;
//  - a watch started (the merchants of the EINs the account did not watch at the event's time).
// The last two are events of the event log, judged in the intake's batch transaction.
// Once per crossing: `webhook_shopped_alerts` holds the watchers alerted in the current episode, and a
// judgement that finds the figure below the threshold ends it. The figure also falls with time alone (no
// event): a judgement compares the figure just before the event too, so an episode that ended silently
// is over even when its row is still there.
//
// The figures are counted from projections' read.merchant_searches (every search, each funder's look-ups
// flagged `looked_up`). The two kinds of judgement are made by two readers, one after the other
// (`lockShoppedJudgements`), and each counts what the judgements before it counted: a look-up of the
// feed counts once the look-ups reader has judged it (its position at or before that reader's), in the
// feed's order whatever the times; any other look-up (of a merchant nobody else watched then) by its time.
// So an episode's row always agrees with the figure its judgement saw, whichever reader is ahead.

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
   * The outbox rows' event id (`webhook_deliveries_once`): the look-up's search id; for an event that judges
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
 * The judgements of being shopped are made one at a time, the look-ups reader's batches and the intake's
 * threshold changes and watch starts (a transaction-scoped advisory lock, taken before anything of either
 * is written): each sees what the other judged, and its count (`otherFunders`) what it counted.
 */
export async function lockShoppedJudgements(tx: PoolClient): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtext('mrn_webhook_shopped_judgements'))`);
}

/**
 * In the intake's batch transaction, before it writes anything: the lock, then the look-ups reader's
 * position (the feed's look-ups judged so far), which cannot move until the transaction ends.
 */
export async function judgedLookups(tx: PoolClient): Promise<Position> {
  await lockShoppedJudgements(tx);
  return readCheckpoint(tx, LOOKUPS_CHECKPOINT);
}

/**
 * Distinct funders other than `watcher` that looked `merchant` up in the 7, 30 and 90 days ending at
 * `at`, as a lateral subquery over read.merchant_searches (every look-up, not only each funder's latest):
 * a look-up of the feed (read.watched_lookups) counts once the look-ups reader has judged it (position
 * at or before `judged`), any other by its time (at or before `at`). `self`: the position of the look-up
 * being judged, whose row `before_7` leaves out (the figure just before it).
 */
const otherFunders = (merchant: string, watcher: string, at: string, judged: string, self?: string) => `(
    select ${
      self
        ? `count(distinct s.account_id) filter (where s.searched_at > ${at}::timestamptz - ${DAYS_7}
                                                and l.position is distinct from ${self}::text)::int as before_7,`
        : ''
    }
           count(distinct s.account_id) filter (where s.searched_at > ${at}::timestamptz - ${DAYS_7})::int as last_7,
           count(distinct s.account_id) filter (where s.searched_at > ${at}::timestamptz - interval '30 days')::int as last_30,
           count(distinct s.account_id)::int as last_90
      from read.merchant_searches s
      left join read.watched_lookups l on l.search_id = s.event_id
     where s.merchant_id = ${merchant} and s.looked_up and s.account_id <> ${watcher}
       and s.searched_at > ${at}::timestamptz - interval '90 days'
       and case when l.position is null then s.searched_at <= ${at}::timestamptz
                else l.position collate "C" <= ${judged}::text end)`;

/** A look-up of a watched merchant, as the feed gives it (read.watched_lookups). */
export interface WatchedLookup {
  /** Its position in the search log (the feed's key and order). */
  position: Position;
  searchId: string;
  at: Date;
  merchantId: string;
  /** The searcher's account. */
  accountId: string;
}

/**
 * Look-up $4 (position) of merchant $1 by $2 at $3: the watchers it judges (watching at $3, a threshold
 * set, the searcher excepted), with the figure just before it (without its row) and with it. The feed is
 * judged in its order, so every look-up of the feed before this one counts, and none after it.
 */
const LOOKUP = `with watchers as (
    select w.account_id, a.shopped_threshold as threshold, m.fein, m.name
      from webhook_merchants m
      join webhook_watches w on w.fein = m.fein
      join webhook_accounts a on a.account_id = w.account_id
     where m.merchant_id = $1 and w.account_id <> $2 and a.shopped_threshold is not null
       and (w.watch_until is null or w.watch_until > $3)
  )
  select w.account_id, $1::uuid as merchant_id, w.fein, w.name, ${alertedSql('w.account_id', '$1')} as alerted,
         c.before_7, w.threshold as threshold_before, c.last_7, c.last_30, c.last_90, w.threshold
    from watchers w
    cross join lateral ${otherFunders('$1', 'w.account_id', '$3', '$4', '$4')} c`;

/** Judges the watchers of the merchant a look-up of the feed found (inside `lockShoppedJudgements`). */
export async function judgeLookup(tx: PoolClient, lookup: WatchedLookup): Promise<ShoppedAlert[]> {
  const { rows } = await tx.query<Judged>({
    name: 'mrn_shopped_lookup',
    text: LOOKUP,
    values: [lookup.merchantId, lookup.accountId, lookup.at, lookup.position],
  });
  return settle(tx, lookup.at, rows, () => lookup.searchId);
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

/**
 * Every merchant account $1 watches at $2 that could be alerted or was, with the figure at $2 (threshold
 * $3; the feed's look-ups judged up to $4).
 */
const WATCHED = `select * from (
    select $1::uuid as account_id, m.merchant_id, m.fein, m.name, ${alertedSql('$1', 'm.merchant_id')} as alerted,
           c.last_7, c.last_30, c.last_90
      from webhook_watches w
      join webhook_merchants m on m.fein = w.fein
      cross join lateral ${otherFunders('m.merchant_id', '$1', '$2', '$4')} c
     where w.account_id = $1 and (w.watch_until is null or w.watch_until > $2)) j
  where j.last_7 >= $3 or j.alerted`;

/**
 * The account saved its threshold with another value (`before` → `after`, null: off): every merchant it
 * watches is judged against the new one. Turned off, every episode of the account is over. `judged`: the
 * look-ups reader's position, read under `lockShoppedJudgements` (`judgedLookups`).
 */
export async function judgeThresholdChange(
  tx: PoolClient,
  e: RecordedEvent,
  change: { accountId: string; before: number | null; after: number | null },
  judged: () => Promise<Position>,
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
    await judged(),
  ]);
  return settle(
    tx,
    e.recordedAt,
    rows.map((r) => ({ ...r, before_7: r.last_7, threshold_before: change.before, threshold: change.after })),
    (r) => alertKey(e.id, r.merchant_id),
  );
}

/**
 * The account's watches recorded ($1 account, $2 EINs, $3 their end or null, $4 the event's time, $5 its
 * position; $6 the feed's look-ups judged so far), and the merchants whose watch starts with it: an EIN it did not watch at the event's time
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
    cross join lateral ${otherFunders('m.merchant_id', '$1', '$4', '$6')} c`;

/** Records an account's watches (MerchantSubscriptionsAdded) and judges the merchants whose watch starts. */
export async function recordWatches(
  tx: PoolClient,
  e: RecordedEvent,
  d: { accountId: string; feins: readonly string[]; watchUntil?: string | undefined },
  judged: () => Promise<Position>,
): Promise<ShoppedAlert[]> {
  const { rows } = await tx.query<Omit<Judged, 'before_7' | 'threshold_before'>>({
    name: 'mrn_shopped_watch',
    text: WATCH,
    values: [d.accountId, d.feins, d.watchUntil ?? null, e.recordedAt, e.position, await judged()],
  });
  // Before the event the account did not watch the merchant: no episode of it was running.
  return settle(
    tx,
    e.recordedAt,
    rows.map((r) => ({ ...r, before_7: 0, threshold_before: null })),
    (r) => alertKey(e.id, r.merchant_id),
  );
}

/** Applies the rule to each judged watcher: its episodes' rows written (one statement, if any changed). */
async function settle(
  tx: PoolClient,
  at: Date,
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
         select * from json_to_recordset($1::json) as r(account_id uuid, merchant_id uuid, alerted boolean)
       ), ended as (
         delete from webhook_shopped_alerts s using c
          where not c.alerted and s.account_id = c.account_id and s.merchant_id = c.merchant_id)
       insert into webhook_shopped_alerts (account_id, merchant_id, alerted_at)
       select account_id, merchant_id, $2 from c where alerted
       on conflict (account_id, merchant_id) do update set alerted_at = excluded.alerted_at`,
      [JSON.stringify(changes), at],
    );
  }
  return alerts;
}

/** A UUID of its own for the alert of `merchantId` at event `eventId`: the same when the log is read again. */
function alertKey(eventId: string, merchantId: string): string {
  const h = createHash('sha256').update(`merchant.shopped:${eventId}:${merchantId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
