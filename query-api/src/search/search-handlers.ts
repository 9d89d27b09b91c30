import {
  isEinSearch,
  MIN_CONTRIBUTION_PERCENT,
  type merchantCheckExists,
  normaliseEin,
  PLANS,
  SEARCH_HISTORY_MONTHS,
  type searchCounts,
  type searchMerchants,
} from '@mrn/contracts';
import { type Actor, forbidden, type Handler, notFound, rateLimited } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';
import {
  INQUIRY_COLUMNS,
  INQUIRY_JOIN,
  type InquiryRow,
  keywordKeys,
  keywordRange,
  keywordScan,
  keywordWords,
  MERCHANT_COLUMNS,
  MERCHANT_JOINS,
  type MerchantRow,
  SIGNAL_COLUMNS,
  SIGNAL_JOINS,
  type SignalRow,
  toSearchedMerchantView,
  watchedOf,
} from '../views.ts';

export const SEARCH_TEXTS = {
  noneFound: 'No Merchants Found',
  overflow: (cap: number) =>
    `More than ${cap} merchants match your search criteria. Please narrow your keyword search.`,
  dailyLimit: (limit: number) =>
    `BASIC members can search up to ${limit.toLocaleString('en-US')} times a day. Upgrade to PRO for unlimited searches.`,
  lowContribution:
    'Your account is locked from search: its 90 day contribution is below the 0.5% minimum and the 14-day warning has expired. Add merchants and notes to raise it.',
} as const;

const keywordCap = (actor: Actor) =>
  actor.isDmAdmin ? PLANS.PRO.keywordMatchLimit : PLANS[actor.planLevel].keywordMatchLimit;

/**
 * Whether an account (`a`: read.accounts, `c`: read.account_contribution) is locked out of search for its
 * contribution now: below the minimum now, and either locked or past its warning's expiry, with no
 * override; a figure back at the minimum lets it search at once, before the next assessment lifts the
 * lock. The contribution view says so with the same expression. Below the minimum with no warning yet
 * (the day's assessment has not run) is false, never null: a null answered the contribution view with a
 * 500 in that window.
 */
export const LOCKED_OUT_SQL = `(not a.contribution_override
      and coalesce(c.ninety_day, 100) < ${MIN_CONTRIBUTION_PERCENT}
      and (a.contribution_locked or coalesce(a.contribution_warning_expire_date <= now(), false)))`;
/** What decides whether an account may search now: its contribution standing (the daily cap: `search_quota`). */
const STANDING = `select ${LOCKED_OUT_SQL} as locked_out
  from read.accounts a
  left join read.account_contribution c on c.account_id = a.id
  where a.id = $1`;

/** Whether the searching account ($1) watches the merchant's EIN: shown beside each merchant found. */
const WATCHED = `exists (select 1 from read.merchant_subscriptions ws where ws.account_id = $1 and ws.fein = m.fein) as watched`;

// The EIN look-up, whether the account watches it, and the account's standing in one round trip: the
// EIN search is the hot path.
const BY_EIN_WITH_STANDING = `select s.locked_out, m.*
  from (select 1) as one
  left join (${STANDING}) as s on true
  left join lateral (select ${MERCHANT_COLUMNS}, ${WATCHED}, ${INQUIRY_COLUMNS}, ${SIGNAL_COLUMNS}
                      from read.merchants m ${MERCHANT_JOINS} ${INQUIRY_JOIN} ${SIGNAL_JOINS}
                      where m.fein = $2 and m.archived_at is null) as m on true`;

// Merchants with a word beginning with the driving word ($1 <= word < $2) whose name also has a word
// beginning with each other word typed (the regular expressions $3), in (word, name) order: an
// index-only range scan that stops after the first few, however common the word. A name with two
// words beginning with the driving word appears twice, hence the margin (four times the cap). The
// limit is part of the text, one named statement per cap: with `limit $5` the generic plan looked
// costly and Postgres planned the statement again on every search.
// The other words are looked for with `like` ($3) before the exact word-start test ($4): a substring
// test costs a fraction of a regular expression on the thousands of names a common word brings.
// Two plain statements plan in a fraction of the time one statement doing both took.
// Its four parameters are numbered from `first` (2 where the account is $1).
const KEYWORD_SCAN = (limit: number, first = 1) => `select w.merchant_id from read.merchant_words w
  where w.word >= $${first} and w.word < $${first + 1}
    and w.name like all($${first + 2}::text[]) and w.name ~ all($${first + 3}::text[])
  order by w.word, w.name, w.merchant_id
  limit ${limit}`;

// The first `limit` merchants of the scan, each once, in the scan's order ($2 to $5: keywordScan).
const KEYWORD_SCAN_IDS = (limit: number) => `select array(
    select s.merchant_id from (select merchant_id, row_number() over () as at from (${KEYWORD_SCAN(limit * 4, 2)}) as w) as s
    group by s.merchant_id order by min(s.at) limit ${limit}) as ids, null::int as found`;

/**
 * At most this many merchants hold a keyword's key for the intersection to answer it (see below): at a
 * million merchants each costs the intersection about 4 µs of PostgreSQL's time, and past about this
 * many matches the scan finds the first ones sooner (bench/src/keyword-bench.ts).
 */
export const KEYWORD_CROWDED = 128;
/** How many crowded keys a process remembers, so a search of them goes straight to the scan. */
const CROWDED_KEPT = 4096;

// Two words or more: the merchants whose row in read.merchant_keywords holds one of the keys of the
// typed words ($5, keywordKeys: a GIN look-up of posting lists about as long as the answer, migration
// 0022), each checked by the rules as the scan checks it: a lexeme beginning with the driving word
// ($1 <= word < $2) and the other words' tests ($3, $4). In the scan's order (that lexeme, then name
// and id), each merchant once. Past KEYWORD_CROWDED merchants holding a key (words that often go
// together, "summit llc"), `found` says so and the scan answers instead: it stops early exactly when
// matches are many. The intersection has fetched KEYWORD_CROWDED + 1 rows to learn it, but read the
// key's posting list whole (a GIN index has no early stop): a process remembers the key (matchingIds).
// read.keyword_matches runs it with the index always, planned once per connection.
// Its five parameters are numbered from `first` (2 where the account is $1).
const KEYWORD_PAIRS = (limit: number, first = 1) =>
  `select ids, found from read.keyword_matches(${[0, 1, 2, 3, 4].map((i) => `$${first + i}`).join(', ')}, ${limit}, ${KEYWORD_CROWDED})`;

// A keyword search in one round trip: the account's standing (as the EIN search reads it), the ids
// the words find (`found`: KEYWORD_PAIRS or KEYWORD_SCAN_IDS, with $1 the account), and those
// merchants as the search shows them, in the order found. No merchant: one row, its columns null.
// Three statements cost the server twice the CPU of this one at 26 merchants (0.45 against 0.23 ms),
// most of it the ids read back and sent again.
const KEYWORD_WITH_STANDING = (found: string) => `select s.locked_out, f.found, m.*
  from (select 1) as one
  left join (${STANDING}) as s on true
  cross join lateral (${found}) as f
  left join lateral (select ${MERCHANT_COLUMNS}, ${WATCHED}, ${INQUIRY_COLUMNS}, ${SIGNAL_COLUMNS}
                      from read.merchants m ${MERCHANT_JOINS} ${INQUIRY_JOIN} ${SIGNAL_JOINS}
                      where m.id = any(f.ids) and m.archived_at is null) as m on true
  order by array_position(f.ids, m.id)`;

/** The two keyword statements per cap, made once: their text is long, and every search sends one. */
const keywordStatements = new Map<number, { pairs: string; scan: string }>();
const keywordStatementsFor = (limit: number) => {
  let made = keywordStatements.get(limit);
  if (!made) {
    made = {
      pairs: KEYWORD_WITH_STANDING(KEYWORD_PAIRS(limit, 2)),
      scan: KEYWORD_WITH_STANDING(KEYWORD_SCAN_IDS(limit)),
    };
    keywordStatements.set(limit, made);
  }
  return made;
};

// Each typed word, or the most similar vocabulary word when no known word begins with it.
// (Each word's prefix range, $2, comes from keywordRange: a b-tree range, where `like w || '%'` would
// read the whole vocabulary.)
const CORRECTIONS = `select coalesce(
    case when exists (select 1 from read.search_words s where s.word >= t.w and s.word < t.upto) then t.w end,
    (select s.word from read.search_words s where s.word % t.w order by s.word <-> t.w, s.word limit 1),
    t.w) as word
  from unnest($1::text[], $2::text[]) with ordinality as t(w, upto, i) order by t.i`;

interface Standing {
  locked_out: boolean | null;
}

/** The statements a search runs, for the bench to explain exactly what the server runs. */
export const SEARCH_STATEMENTS = {
  standing: STANDING,
  einWithStanding: BY_EIN_WITH_STANDING,
  keywordScan: KEYWORD_SCAN(26 * 4),
  keywordPairs: KEYWORD_PAIRS(26),
  keywordPairsWithStanding: KEYWORD_WITH_STANDING(KEYWORD_PAIRS(26, 2)),
  keywordScanWithStanding: KEYWORD_WITH_STANDING(KEYWORD_SCAN_IDS(26)),
  corrections: CORRECTIONS,
} as const;

/** A merchant a search found, whether the searching account watches its EIN, and its inquiry velocity. */
export type SearchedRow = MerchantRow & InquiryRow & SignalRow & { watched: boolean };

/** What a search found: the merchants shown, whether more matched, and the recorded search's position. */

export interface SearchOutcome {
  shown: SearchedRow[];
  overflow: boolean;
  position: string;
}

/**
 * The merchant search both APIs run (the dashboard's and the partner API's): the account's standing
 * (contribution lock, BASIC daily cap), EIN or keyword look-up, and the search recorded as a fact.
 */
export function merchantSearch(deps: QueryDeps) {
  /**
   * An account locked out for its contribution may not search (core spec §6, DESIGN §4), and BASIC accounts have a
   * daily cap that resets at midnight UTC (accounts spec §1). Platform admins are exempt from both.
   */
  async function checkStanding(actor: Actor, standing: Standing | undefined): Promise<void> {
    if (actor.isDmAdmin || !standing) return;
    if (standing.locked_out) throw forbidden(SEARCH_TEXTS.lowContribution);
    const limit = PLANS[actor.planLevel].dailySearchLimit;
    if (limit === null) return;
    // Taken in one statement, so searches sent at once cannot all pass: the day's count lives here alone.
    const { rows } = await deps.pool.query<{ used: number }>({
      name: 'mrn_take_search_quota',
      text: `insert into search_quota (account_id, day, used) values ($1, (now() at time zone 'utc')::date, 1)
             on conflict (account_id, day) do update set used = search_quota.used + 1
             returning used`,
      values: [actor.accountId],
    });
    if ((rows[0]?.used ?? 0) > limit) {
      const now = new Date();
      const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
      throw rateLimited(SEARCH_TEXTS.dailyLimit(limit), Math.ceil((midnight - now.getTime()) / 1000));
    }
  }

  async function standingOf(actor: Actor): Promise<Standing | undefined> {
    const { rows } = await deps.lookups.query<Standing>({
      name: 'mrn_search_standing',
      text: STANDING,
      values: [actor.accountId],
    });
    return rows[0];
  }

  async function byEinWithStanding(actor: Actor, fein: string): Promise<SearchedRow[]> {
    const { rows } = await deps.lookups.query<SearchedRow & Standing>({
      name: 'mrn_search_ein',
      text: BY_EIN_WITH_STANDING,
      values: [actor.accountId, fein],
    });
    await checkStanding(actor, rows[0]);
    return rows.filter((r) => r.id !== null);
  }

  async function byEin(fein: string): Promise<MerchantRow[]> {
    const { rows } = await deps.lookups.query<MerchantRow>({
      name: 'mrn_merchant_by_ein',
      text: `select ${MERCHANT_COLUMNS} from read.merchants m ${MERCHANT_JOINS} where m.fein = $1 and m.archived_at is null`,
      values: [fein],
    });
    return rows;
  }

  // Keys found crowded, oldest first: the intersection reads a key's whole posting list before it
  // knows, so a crowded key is looked up once per process (at most CROWDED_KEPT remembered).
  const crowded = new Set<string>();

  /**
   * The first `limit` merchants a keyword's words find, in order (intersected, or scanned past a crowded
   * key), with the account's standing: one round trip, two when the key proves crowded.
   */
  async function matching(
    actor: Actor,
    words: readonly string[],
    limit: number,
  ): Promise<{ rows: SearchedRow[]; standing: Standing | undefined }> {
    const keys = keywordKeys(words);
    const known = keys.join('|');
    if (keys.length > 0 && !crowded.has(known)) {
      const { rows } = await deps.lookups.query<SearchedRow & Standing & { found: number }>({
        name: `mrn_search_keyword_pairs_${limit}`,
        text: keywordStatementsFor(limit).pairs,
        values: [actor.accountId, ...keywordScan(words), keys],
      });
      if (rows[0]!.found <= KEYWORD_CROWDED)
        return { rows: rows.filter((r) => r.id !== null), standing: rows[0] };
      crowded.add(known);
      if (crowded.size > CROWDED_KEPT) crowded.delete(crowded.values().next().value!);
    }
    const { rows } = await deps.lookups.query<SearchedRow & Standing>({
      name: `mrn_search_keyword_${limit}`,
      text: keywordStatementsFor(limit).scan,
      values: [actor.accountId, ...keywordScan(words)],
    });
    return { rows: rows.filter((r) => r.id !== null), standing: rows[0] };
  }

  /**
   * Merchants whose name or DBA has a word beginning with each word typed (words under three letters:
   * that whole word), in the order of the longest word's. When nothing matches, each word that begins no known word is
   * replaced by the closest known word (trigram similarity over the vocabulary, not over every name).
   * The account's standing is checked once, with the first look-up's answer.
   */
  async function byKeyword(actor: Actor, term: string, limit: number): Promise<SearchedRow[]> {
    const words = keywordWords(term);
    if (words.length === 0) {
      await checkStanding(actor, await standingOf(actor));
      return [];
    }
    const found = await matching(actor, words, limit);
    await checkStanding(actor, found.standing);
    if (found.rows.length > 0) return found.rows;
    const { rows } = await deps.lookups.query<{ word: string }>({
      name: 'mrn_search_corrections',
      text: CORRECTIONS,
      values: [words, words.map((w) => keywordRange(w)[1])],
    });
    const corrected = rows.map((r) => r.word);
    if (corrected.every((w, i) => w === words[i])) return [];
    return (await matching(actor, corrected, limit)).rows;
  }

  /** Every search is a fact (DESIGN §4): it feeds search history, counts, caps and contribution. */
  const record = (
    actor: Actor,
    term: string,
    einSearch: boolean,
    found: MerchantRow[],
    source: 'web' | 'api',
  ) =>
    deps.searches.record({
      accountId: actor.accountId,
      userId: actor.userId,
      source,
      term,
      einSearch,
      merchantIds: found.map((r) => r.id),
      hit: found.length > 0,
      categories: found.map((r) => r.last_note_category),
      ...(actor.isDmAdmin ? { platformAdmin: true } : {}),
    });

  /** Searches as `actor`, showing at most `cap` merchants, and records the search from `source`. */
  async function find(
    actor: Actor,
    term: string,
    cap: number,
    source: 'web' | 'api',
  ): Promise<SearchOutcome> {
    const einSearch = isEinSearch(term);
    let rows: SearchedRow[];
    if (einSearch) rows = await byEinWithStanding(actor, normaliseEin(term));
    else rows = await byKeyword(actor, term, cap + 1);
    const shown = rows.slice(0, cap);
    const recorded = await record(actor, term, einSearch, shown, source);
    return { shown, overflow: rows.length > cap, position: recorded.position };
  }

  return { find, byEin, standingOf };
}

export function searchHandlers(deps: QueryDeps) {
  const { find, byEin } = merchantSearch(deps);

  const searchMerchantsHandler: Handler<typeof searchMerchants> = async (req) => {
    const cap = keywordCap(req.actor);
    const { shown, overflow, position } = await find(req.actor, req.query.search, cap, 'web');
    if (shown.length === 0) throw notFound(SEARCH_TEXTS.noneFound, { position });
    const watched = watchedOf(req.actor, shown);
    return {
      data: shown.map((r) => toSearchedMerchantView(r, req.actor, watched)),
      warning: overflow ? SEARCH_TEXTS.overflow(cap) : null,
      position,
    };
  };

  const merchantCheckExistsHandler: Handler<typeof merchantCheckExists> = async (req) => {
    const rows = await byEin(req.query.search);
    return { data: { resource_id: rows[0]?.id ?? null, legal_name: rows[0]?.legal_name ?? null } };
  };

  const searchCountsHandler: Handler<typeof searchCounts> = async (req) => {
    // A live merchant: every search that found it (by EIN or keyword). No merchant: searches of the EIN.
    const merchant = await byEin(req.query.search);
    const { rows } = merchant[0]
      ? await deps.pool.query<{ searched_at: Date; account_id: string }>(
          `select searched_at, account_id from read.merchant_searches
            where merchant_id = $1 and searched_at > now() - make_interval(months => $2) order by searched_at desc`,
          [merchant[0].id, SEARCH_HISTORY_MONTHS],
        )
      : await deps.pool.query<{ searched_at: Date; account_id: string }>(
          `select searched_at, account_id from read.ein_searches
            where fein = $1 and searched_at > now() - make_interval(months => $2) order by searched_at desc`,
          [req.query.search, SEARCH_HISTORY_MONTHS],
        );
    const months = windowMonths(SEARCH_HISTORY_MONTHS, new Date());
    for (const r of rows) {
      const bucket = months.find((m) => m.month === r.searched_at.toISOString().slice(0, 7));
      if (bucket) bucket.count++;
    }
    return {
      data: {
        total: rows.length,
        months,
        // No funder is identified to another as having searched (the network's first rule): the field
        // the spec names is filled for the caller's own account's searches only (all for staff).
        entries: rows.map((r) => ({
          created_at: r.searched_at.toISOString(),
          added_by_account_id:
            req.actor.isDmAdmin || r.account_id === req.actor.accountId ? r.account_id : null,
        })),
      },
    };
  };

  return {
    searchMerchants: searchMerchantsHandler,
    merchantCheckExists: merchantCheckExistsHandler,
    searchCounts: searchCountsHandler,
  };
}

/**
 * The calendar months (UTC) that the window of the last `n` months touches, oldest first, counts at zero:
 * the month the window starts in (partly inside it) to the current one, `n + 1` months. Every search the
 * total counts falls in one of them (with `n` months, the first days of the window fell in none).
 */
export function windowMonths(n: number, now: Date): { month: string; count: number }[] {
  const months: { month: string; count: number }[] = [];
  for (let i = n; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    months.push({ month: d.toISOString().slice(0, 7), count: 0 });
  }
  return months;
}
