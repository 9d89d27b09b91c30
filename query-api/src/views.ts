import {
  type InquiryVelocity,
  LOCKED_CATEGORIES,
  type MerchantSignals,
  type MerchantView,
  type NoteCategory,
  type NoteView,
  PLATFORM_ONLY_CATEGORY,
  type SearchedMerchantView,
  type SignalSummary,
  seesProData,
  signalsFrom,
} from '@mrn/contracts';
import type { Actor, Pool } from '@mrn/platform';

export const iso = (d: Date | string | null): string | null =>
  d === null ? null : new Date(d).toISOString();
const day = (d: Date | string | null): string | null => (d === null ? null : iso(d)!.slice(0, 10));

/** Added-by user names are for platform admins and admins of the authoring account (core spec §6). */
export const maySeeAdder = (actor: Actor, accountId: string) =>
  actor.isDmAdmin || (actor.isAdmin && actor.accountId === accountId);

export const MERCHANT_COLUMNS = `m.id, m.fein, m.legal_name, m.dba, m.street1, m.street2, m.city, m.state, m.business_phone,
  m.business_startdate, m.industry, m.account_id, m.created_at, m.last_note_category, m.archived_at, m.archive_reason,
  a.name as account_name, u.first_name || ' ' || u.last_name as user_name`;
export const MERCHANT_JOINS = `left join read.accounts a on a.id = m.account_id left join read.users u on u.id = m.user_id`;

export interface MerchantRow {
  id: string;
  fein: string;
  legal_name: string;
  dba: string | null;
  street1: string | null;
  street2: string | null;
  city: string;
  state: string;
  business_phone: string | null;
  business_startdate: Date | null;
  industry: string | null;
  account_id: string;
  created_at: Date;
  last_note_category: string | null;
  archived_at: Date | null;
  archive_reason: string | null;
  account_name: string | null;
  user_name: string | null;
}

/**
 * The EINs among `feins` that the caller's account watches (has_merchant_subscription). Only PRO
 * accounts have subscriptions: a BASIC search (the hot path of most funders) costs no extra look-up.
 */
export async function watchedFeins(pool: Pool, actor: Actor, feins: readonly string[]): Promise<Set<string>> {
  if (feins.length === 0 || actor.planLevel !== 'PRO') return new Set();
  const { rows } = await pool.query<{ fein: string }>(
    'select fein from read.merchant_subscriptions where account_id = $1 and fein = any($2::text[])',
    [actor.accountId, feins],
  );
  return new Set(rows.map((r) => r.fein));
}

/** `watchedFeins` for rows that say whether the actor's account watches them (the search statements). */
export function watchedOf(actor: Actor, rows: readonly { fein: string; watched: boolean }[]): Set<string> {
  if (actor.planLevel !== 'PRO') return new Set();
  return new Set(rows.filter((r) => r.watched).map((r) => r.fein));
}

export function toMerchantView(
  r: MerchantRow,
  actor: Actor,
  watched: ReadonlySet<string> = new Set(),
): MerchantView {
  const address = [r.street1, r.street2, `${r.city}, ${r.state}`].filter(Boolean).join(', ');
  return {
    resource_id: r.id,
    fein: r.fein,
    legal_name: r.legal_name,
    dba: r.dba,
    address,
    street1: r.street1,
    street2: r.street2,
    city: r.city,
    state: r.state,
    business_phone: r.business_phone,
    business_startdate: day(r.business_startdate),
    industry: r.industry,
    added_by: r.account_name,
    added_by_user: maySeeAdder(actor, r.account_id) ? r.user_name : null,
    added_by_account_id: r.account_id,
    created_at: iso(r.created_at)!,
    last_note_category: r.last_note_category,
    has_merchant_subscription: watched.has(r.fein),
    reason: r.archive_reason,
    archived_at: iso(r.archived_at),
  };
}

/**
 * Inquiry velocity of each merchant `m` for the searching account ($1), from the projected figures
 * (projections/migrations/0021): three columns of a row, with INQUIRY_JOIN in the statement.
 */
export const INQUIRY_COLUMNS = 'iv.last_7_days, iv.last_30_days, iv.last_90_days';
export const INQUIRY_JOIN = 'left join lateral read.inquiry_velocity(m.id, $1::uuid, now()) iv on true';

export interface InquiryRow {
  last_7_days: number | null;
  last_30_days: number | null;
  last_90_days: number | null;
}

/** The figures for PRO members and platform administrators; for BASIC, that they exist (an upgrade path). */
export function toInquiries(r: InquiryRow, actor: Actor): InquiryVelocity {
  const available = seesProData({ planLevel: actor.planLevel, isPlatformAdmin: actor.isDmAdmin });
  return {
    available,
    last_7_days: available ? (r.last_7_days ?? 0) : null,
    last_30_days: available ? (r.last_30_days ?? 0) : null,
    last_90_days: available ? (r.last_90_days ?? 0) : null,
  };
}

/**
 * Risk signals of each merchant `m` (issue 32): its projected summary, one row by key, and its EIN's
 * disputes; the windows are counted from the summary's times as of the read (toSignals).
 */
export const SIGNAL_COLUMNS =
  'sg.funders as signal_funders, sg.reports as signal_reports, sd.open as disputes_open, sd.resolved as disputes_resolved';
export const SIGNAL_JOINS = `left join read.merchant_signals sg on sg.merchant_id = m.id
  left join lateral (select count(*) filter (where not d.resolved)::int as open, count(*) filter (where d.resolved)::int as resolved
                       from read.signal_disputes d where d.fein = m.fein) sd on true`;

export interface SignalRow {
  signal_funders: number | null;
  signal_reports: SignalSummary['reports'] | null;
  disputes_open: number | null;
  disputes_resolved: number | null;
}

export const toSignals = (r: SignalRow, asOf = new Date()): MerchantSignals =>
  signalsFrom(
    r.signal_reports ? { funders: r.signal_funders ?? 0, reports: r.signal_reports } : null,
    { open: r.disputes_open ?? 0, resolved: r.disputes_resolved ?? 0 },
    asOf,
  );

/** A merchant as a search or its page shows it. */
export const toSearchedMerchantView = (
  r: MerchantRow & InquiryRow & SignalRow,
  actor: Actor,
  watched: ReadonlySet<string>,
): SearchedMerchantView => ({
  ...toMerchantView(r, actor, watched),
  inquiries: toInquiries(r, actor),
  signals: toSignals(r),
});

export const NOTE_COLUMNS = `n.id, n.merchant_id, n.category, n.note, n.submission_source, n.broker_name, n.account_id, n.user_id,
  n.proxied_creator, n.created_at, n.updated_at, n.deletion_requested_at, n.deletion_reason,
  na.name as account_name, nu.first_name || ' ' || nu.last_name as user_name`;
export const NOTE_JOINS = `left join read.accounts na on na.id = n.account_id left join read.users nu on nu.id = n.user_id`;

export interface NoteRow {
  id: string;
  merchant_id: string;
  category: string;
  note: string;
  submission_source: 'in-house' | 'broker' | null;
  broker_name: string | null;
  account_id: string;
  user_id: string;
  proxied_creator: string | null;
  created_at: Date;
  updated_at: Date | null;
  deletion_requested_at: Date | null;
  deletion_reason: string | null;
  account_name: string | null;
  user_name: string | null;
}

/** Merchant Dispute notes are for platform admins only: the SQL condition that hides them from others. */
export const visibleNotes = (actor: Actor) =>
  actor.isDmAdmin ? 'true' : `n.category <> '${PLATFORM_ONLY_CATEGORY}'`;

export function toNoteView(r: NoteRow, actor: Actor, merchantLive = true): NoteView {
  const locked = LOCKED_CATEGORIES.includes(r.category as NoteCategory);
  // Submission source data of the network is PRO's. A funder's own notes keep theirs: its members typed
  // it, and editing a note sends the whole note back (a hidden source would be saved as none).
  const proData =
    r.account_id === actor.accountId ||
    seesProData({ planLevel: actor.planLevel, isPlatformAdmin: actor.isDmAdmin });
  return {
    id: r.id,
    resource_id: r.id,
    merchant_id: r.merchant_id,
    category: r.category,
    note: r.note,
    submission_source: proData ? r.submission_source : null,
    broker_name: proData ? r.broker_name : null,
    proxied_creator: r.proxied_creator,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at),
    created_by_id: maySeeAdder(actor, r.account_id) ? r.user_id : null,
    added_by: r.account_name,
    added_by_user: maySeeAdder(actor, r.account_id) ? r.user_name : null,
    added_by_account_id: r.account_id,
    can_edit: merchantLive && (actor.isDmAdmin || (r.user_id === actor.userId && !locked)),
    can_request_deletion:
      merchantLive &&
      !actor.isDmAdmin &&
      r.account_id === actor.accountId &&
      r.deletion_requested_at === null,
    can_archive: merchantLive && actor.isDmAdmin,
    // A deletion request is between the authoring funder and the platform: others never learn of it.
    deletion_requested:
      r.deletion_requested_at !== null && (actor.isDmAdmin || r.account_id === actor.accountId),
    deletion_reason: actor.isDmAdmin ? r.deletion_reason : null,
  };
}

export function pagination(page: number, perPage: number, total: number) {
  return {
    current_page: page,
    per_page: perPage,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
    total_count: total,
  };
}

/** Escapes LIKE wildcards in user input. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Letters PostgreSQL's unaccent() folds that Unicode decomposition leaves alone. */
const FOLDED_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/**
 * Text as keyword search compares it: lower case, diacritics removed, as read.fold() folds names in the
 * database ("Café Müller" → "cafe muller"), so a word typed with or without accents finds the same.
 */
export const foldForSearch = (text: string): string =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøłđðþı]/g, (c) => FOLDED_LETTERS[c] ?? c);

/**
 * The words of a keyword, split as the full-text index splits names: folded, letters and digits.
 * Postgres' parser also splits at apostrophes and hyphens, so "O'Brien Auto-Parts" gives the same
 * words on both sides.
 */
export const keywordWords = (term: string): string[] =>
  foldForSearch(term)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * The parameters of a keyword scan over read.merchant_words: the range of words the longest typed
 * word begins (the most selective, as a rule), and for each other word, which the name must have a
 * word beginning with, a `like` pattern (a cheap first test) and a regular expression (the exact one). Words under three letters must be whole words: as prefixes
 * they would match most names. Words hold only letters and digits, so they are safe in a pattern.
 */
export function keywordScan(words: readonly string[]): [string, string, string[], string[]] {
  const at = words.reduce((best, w, i) => (w.length > words[best]!.length ? i : best), 0);
  const driving = words[at]!;
  const others = words.filter((_, i) => i !== at);
  return [
    ...keywordRange(driving),
    others.map((w) => `%${w}%`),
    others.map((w) => `\\m${w}${w.length < 3 ? '\\M' : ''}`),
  ];
}

/** A word's token in read.merchant_keywords (migration 0024), as the database makes it of a name's word. */
const keywordToken = (w: string) =>
  w.length < 3 ? w : /^[a-z0-9]{4}/.test(w) ? w.slice(0, 4) : w.slice(0, 3);

/**
 * The keys of read.merchant_keywords (migration 0024) one of which a name holds if it has every typed
 * word, so the merchants holding any are all those the words can find (and a few more, which the
 * rules' own tests then drop), or none when the index cannot narrow them (the scan by one word
 * answers). A pair "a b" (a < b in byte order) of two words' tokens: of the two longest words with a
 * token of their own; with one such word only, it and each token a word of three letters a-z or
 * digits may begin (itself, or it and one more letter or digit). None for fewer words, two words of
 * three letters, one token ("summit sum"), or a character outside the Basic Multilingual Plane (where
 * the database's characters and JavaScript's UTF-16 units part). A name too long to pair holds '*',
 * always a key.
 */
export function keywordKeys(words: readonly string[]): string[] {
  if (words.some((w) => /[\u{10000}-\u{10FFFF}]/u.test(w))) return [];
  const expandable = (w: string) => /^[a-z0-9]{3}$/.test(w);
  const exact = [...new Set(words.filter((w) => !expandable(w)).map(keywordToken))].sort(
    (a, b) => b.length - a.length,
  );
  // In the Basic Multilingual Plane, UTF-16 order is byte order (collation "C").
  const pair = (a: string, b: string) => (a < b ? `${a} ${b}` : `${b} ${a}`);
  if (exact.length >= 2) return [pair(exact[0]!, exact[1]!), '*'];
  const three = words.find(expandable);
  // A word it begins could be the exact word's own: no pair of two words says anything then.
  if (exact.length === 0 || three === undefined || exact[0]!.startsWith(three)) return [];
  return [three, ...[...'abcdefghijklmnopqrstuvwxyz0123456789'].map((c) => three + c)]
    .map((t) => pair(exact[0]!, t))
    .concat('*');
}

/** The range of words a typed word stands for: [word, upper bound) in byte order (collation "C"). */
export const keywordRange = (word: string): [string, string] => [
  word,
  word.length < 3 ? `${word}\u0001` : nextPrefix(word),
];

/** The least string after every string that begins with `prefix` (byte order, as collation "C" sorts). */
const nextPrefix = (prefix: string): string => {
  const chars = [...prefix];
  const last = chars.pop()!.codePointAt(0)!;
  return chars.join('') + String.fromCodePoint(last + 1);
};
