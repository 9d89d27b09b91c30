import type { Queryable } from '@mrn/platform';
import type { ProjectedEvent } from '../projector.ts';
import { projector } from '../projector.ts';

type Touch = ProjectedEvent<'MerchantAdded' | 'NoteAdded' | 'AccountContributionRecalculated'>;

/**
 * The merchant a search is about: an EIN search that found it, or a keyword search that found it
 * alone. A keyword that lists 25 merchants has not searched 25 merchants, and counting them would
 * sink the contribution of every funder who types a name (DESIGN §4 leaves "searched" open).
 */
export const searchedMerchant = (e: ProjectedEvent<'MerchantSearched'>): string | undefined =>
  e.data.hit && e.data.merchantIds.length === 1 ? e.data.merchantIds[0] : undefined;

/**
 * The contribution tables are kept by two readers, the event log's (records added, a day's start, a
 * Recalculate) and the search log's (merchants searched): each takes this lock first, so their
 * transactions never interleave over an account's windows.
 */
export async function lockContribution(tx: Queryable): Promise<void> {
  await tx.query({
    name: 'mrn_lock_contribution',
    text: `select pg_advisory_xact_lock(hashtext('read.contribution'))`,
  });
}

/**
 * Recomputes the accounts' figures as of `at` (read.recompute_contribution, migrations 0020 and 0022):
 * never as of an earlier time than they were computed at already, so whichever reader comes last leaves
 * the figures of the latest time with everything both logs hold up to it, whatever their order.
 */
async function recompute(tx: Queryable, asOf: Map<string, Date>): Promise<void> {
  const byTime = new Map<number, string[]>();
  for (const [account, at] of asOf) byTime.set(at.getTime(), [...(byTime.get(at.getTime()) ?? []), account]);
  for (const [time, accounts] of byTime) {
    await tx.query('select read.recompute_contribution($1::uuid[], $2)', [accounts.sort(), new Date(time)]);
  }
}

/**
 * Contribution figures (DESIGN §4), from the event log: the records each account added, and its 90/30/
 * 14/7-day percentages computed as of its latest event of the batch, or as of a new day's start for every
 * account. Computed as of event times, a replay gives the figures the live projector gave; each window
 * remembers where it started, so a recompute counts only what moved since the last one. The merchants
 * searched come from the search log (`contributionSearchesProjector`).
 */
export const contributionProjector = projector({
  name: 'contribution',
  tables: [
    'read.contribution_additions',
    'read.contribution_totals',
    // A cache of both halves, rebuilt from the tables when it is emptied (the recompute starts afresh).
    'read.contribution_window_starts',
    'read.account_contribution',
  ],
  bulk: {
    order: ['MerchantAdded', 'NoteAdded', 'ContributionDayStarted', 'AccountContributionRecalculated'],
    handlers: {
      MerchantAdded: async (tx, events) => {
        await lockContribution(tx);
        await insertRecords(tx, events);
      },
      NoteAdded: async (tx, events) => {
        await lockContribution(tx);
        await insertRecords(tx, events);
      },
      // Nothing to store: the day's start is when every account's figures are recomputed (afterBatch).
      ContributionDayStarted: async () => undefined,
      // Nothing to store either: a Recalculate recomputes that account as of when it was asked.
      AccountContributionRecalculated: async () => undefined,
    },
  },
  async afterBatch(tx, batch) {
    await lockContribution(tx);
    // Each account's figures as of its latest event in the batch; a new day recomputes every account
    // as of that day's start, unless one of its own events came later.
    const asOf = new Map<string, Date>();
    let dayStart: Date | undefined;
    for (const e of batch) {
      if (e.type === 'ContributionDayStarted') {
        dayStart = e.recordedAt;
        for (const account of asOf.keys()) asOf.set(account, e.recordedAt);
        continue;
      }
      const account = touchedAccount(e as Touch);
      if (account) asOf.set(account, e.recordedAt);
    }
    if (dayStart) {
      await tx.query(
        `select read.recompute_contribution(array_agg(account_id order by account_id), $1)
           from read.account_contribution where account_id <> all($2::uuid[])`,
        [dayStart, [...asOf.keys()]],
      );
    }
    await recompute(tx, asOf);
  },
});

/**
 * Contribution's merchants searched, from the search log: each account's last search of each merchant
 * it searched (a merchant counts once per window), the running total, and the windows' "before" counts
 * moved as a merchant's last search crosses a window's start; then the accounts searched are recomputed.
 */
export const contributionSearchesProjector = projector({
  name: 'contribution_searches',
  log: 'searches',
  tables: [
    'read.contribution_searches',
    'read.contribution_search_totals',
    'read.contribution_window_starts',
  ],
  bulk: {
    order: ['MerchantSearched'],
    handlers: {
      MerchantSearched: async (tx, events) => {
        const searched = events.flatMap((e) => {
          const merchantId = searchedMerchant(e);
          return merchantId ? [{ accountId: e.data.accountId, merchantId, at: e.recordedAt }] : [];
        });
        if (searched.length === 0) return;
        await lockContribution(tx);
        // Each merchant's last search before and after the upsert: a merchant searched for the first
        // time adds to the account's total (and, if older than a window's start, to what that window has
        // before it); one searched again whose last search moves past a window's start leaves that
        // "before". The "before" is read beside the input, and the "after" is the greater of the two: the
        // upsert's returned rows joined back to the input were planned as a nested loop over the whole
        // input for each row (json_to_recordset is estimated at 100 rows), 2.95 s for a replay batch of
        // 5,000 searches against 72 ms now.
        await tx.query(
          `with s as (
             select x.account_id, x.merchant_id, x.at,
                    (select c.last_searched_at from read.contribution_searches c
                      where c.account_id = x.account_id and c.merchant_id = x.merchant_id) as old_at
               from (select "accountId" as account_id, "merchantId" as merchant_id, max(at) as at
                       from json_to_recordset($1::json) as x("accountId" uuid, "merchantId" uuid, at timestamptz)
                      group by 1, 2) x
           ), up as (
             insert into read.contribution_searches as c (account_id, merchant_id, last_searched_at)
             select account_id, merchant_id, at from s
             on conflict (account_id, merchant_id) do update
               set last_searched_at = greatest(c.last_searched_at, excluded.last_searched_at)
           ), moves as (
             select account_id, old_at, greatest(old_at, at) as new_at from s
           ), totals as (
             insert into read.contribution_search_totals as t (account_id, merchants)
             select account_id, count(*) from moves where old_at is null group by account_id
             on conflict (account_id) do update set merchants = t.merchants + excluded.merchants
           )
           update read.contribution_window_starts w set searched_before = w.searched_before + d.delta
             from (select ws.account_id, ws.days,
                          sum(case when m.old_at is null and m.new_at < ws.start_at then 1
                                   when m.old_at < ws.start_at and m.new_at >= ws.start_at then -1
                                   else 0 end) as delta
                     from moves m join read.contribution_window_starts ws on ws.account_id = m.account_id
                    group by ws.account_id, ws.days) d
            where w.account_id = d.account_id and w.days = d.days and d.delta <> 0`,
          [JSON.stringify(searched)],
        );
      },
    },
  },
  async afterBatch(tx, batch) {
    const asOf = new Map<string, Date>();
    for (const e of batch) {
      if (e.type === 'MerchantSearched' && searchedMerchant(e as ProjectedEvent<'MerchantSearched'>))
        asOf.set((e as ProjectedEvent<'MerchantSearched'>).data.accountId, e.recordedAt);
    }
    if (asOf.size === 0) return;
    await lockContribution(tx);
    await recompute(tx, asOf);
  },
});

function touchedAccount(e: Touch): string | undefined {
  switch (e.type) {
    case 'MerchantAdded':
    case 'NoteAdded':
    case 'AccountContributionRecalculated':
      return e.data.accountId;
    default:
      return undefined;
  }
}

async function insertRecords(
  tx: Parameters<NonNullable<typeof contributionProjector.afterBatch>>[0],
  events: ProjectedEvent<'MerchantAdded' | 'NoteAdded'>[],
): Promise<void> {
  // Counted per account and exact time (a command's records share its time). The running total counts
  // every new record; a record older than a window's stored start (events out of time order) is
  // counted among the records before it, so the window's figures stay exact.
  await tx.query(
    `with added as (
       select "accountId" as account_id, at as added_at, count(*)::int as n
         from json_to_recordset($1::json) as x("accountId" uuid, at timestamptz)
        group by 1, 2
     ), stored as (
       insert into read.contribution_additions as a (account_id, added_at, records)
       select account_id, added_at, n from added
       on conflict (account_id, added_at) do update set records = a.records + excluded.records
     ), totals as (
       insert into read.contribution_totals as t (account_id, records)
       select account_id, sum(n) from added group by account_id
       on conflict (account_id) do update set records = t.records + excluded.records
     )
     update read.contribution_window_starts w set records_before = w.records_before + late.n
       from (select s.account_id, s.days, sum(added.n) as n
               from added join read.contribution_window_starts s
                 on s.account_id = added.account_id and added.added_at < s.start_at
              group by s.account_id, s.days) late
      where w.account_id = late.account_id and w.days = late.days`,
    [JSON.stringify(events.map((e) => ({ accountId: e.data.accountId, at: e.recordedAt })))],
  );
}
