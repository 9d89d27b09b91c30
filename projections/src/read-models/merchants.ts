import { type ApplyContext, lastBy, type ProjectedEvent, projector } from '../projector.ts';

/** The lexemes of a name (read.merchants.search_text) keyword search indexes. */
const WORDS_OF = (name: string) => `tsvector_to_array(to_tsvector('simple', ${name}))`;

/**
 * Indexes the names just written (`from`: rows of id, search_text) for keyword search: their words
 * (read.merchant_words, the scan by one word), their row of word-beginning pairs
 * (read.merchant_keywords, the intersection of two words or more: migration 0024), and new words in
 * the vocabulary that misspelt keywords are corrected against. The lexemes are made once for both.
 * A replay adds only the vocabulary: the two indexes follow from read.merchants (`buildKeywordIndex`).
 */
const INDEX_WORDS = (from: string, ctx: ApplyContext) =>
  ctx.replaying
    ? `insert into read.search_words (word)
  select distinct w from ${from} n, unnest(${WORDS_OF('n.search_text')}) as w on conflict do nothing`
    : `, keywords as (
    insert into read.merchant_keywords (merchant_id, name, words, pairs)
    select n.id, n.search_text, l.words, read.merchant_keyword_pairs(n.search_text, l.words)
    from ${from} n, lateral (select ${WORDS_OF('n.search_text')} as words) as l
    returning merchant_id, name, words),
  words as (
    insert into read.merchant_words (word, name, merchant_id)
    select w, k.name, k.merchant_id from keywords k, unnest(k.words) as w
    returning word)
  insert into read.search_words (word) select distinct word from words on conflict do nothing`;

/**
 * The keyword index of every merchant not archived, as INDEX_WORDS leaves it merchant by merchant: after
 * a replay, in one pass per table (the two side by side), rows in their primary key's order.
 */
const BUILD_KEYWORDS = `insert into read.merchant_keywords (merchant_id, name, words, pairs)
  select m.id, m.search_text, l.words, read.merchant_keyword_pairs(m.search_text, l.words)
  from read.merchants m, lateral (select ${WORDS_OF('m.search_text')} as words) as l
  where m.archived_at is null
  order by m.id`;
const BUILD_WORDS = `insert into read.merchant_words (word, name, merchant_id)
  select w, m.search_text, m.id from read.merchants m, unnest(${WORDS_OF('m.search_text')}) as w
  where m.archived_at is null
  order by 1, 2, 3`;

/**
 * Removes the keyword index of merchants as they stand in read.merchants (before the change): their
 * words by primary key (an index on merchant_id alone cost every replayed word a second index
 * entry), their pairs row by merchant.
 */
const UNINDEX = `with pairs as (delete from read.merchant_keywords where merchant_id = any($1::uuid[]))
  delete from read.merchant_words w
  using read.merchants m, unnest(tsvector_to_array(to_tsvector('simple', m.search_text))) as x(word)
  where m.id = any($1::uuid[]) and w.word = x.word and w.name = m.search_text and w.merchant_id = m.id`;

// Merchant Dispute notes are for platform admins only, so they never show as a list's latest category.
const isVisible = (e: ProjectedEvent<'NoteAdded'>) => e.data.category !== 'Merchant Dispute';

/**
 * "Latest Note" of the given merchants from their remaining notes: the newest one not archived and not a
 * Merchant Dispute, or none. Run after a note is edited or archived (a later note may now be the latest,
 * or none may be left).
 */
const RECOMPUTE_LATEST = `update read.merchants m
  set last_note_category = latest.category, last_note_at = latest.at
  from (select ids.id,
          (select i.category from read.merchant_note_index i
            where i.merchant_id = ids.id and not i.archived and i.category <> 'Merchant Dispute'
            order by i.at desc, i.note_id desc limit 1) as category,
          (select i.at from read.merchant_note_index i
            where i.merchant_id = ids.id and not i.archived and i.category <> 'Merchant Dispute'
            order by i.at desc, i.note_id desc limit 1) as at
        from unnest($1::uuid[]) as ids(id)) as latest
  where m.id = latest.id
    and (m.last_note_category is distinct from latest.category or m.last_note_at is distinct from latest.at)`;

/** The latest visible note of each merchant among a batch's NoteAdded events. */
function latestVisibleNotes(batch: readonly ProjectedEvent[]): Map<string, { category: string; at: Date }> {
  const latest = new Map<string, { category: string; at: Date }>();
  for (const e of batch) {
    if (e.type !== 'NoteAdded') continue;
    const note = e as ProjectedEvent<'NoteAdded'>;
    if (isVisible(note))
      latest.set(note.data.merchantId, { category: note.data.category, at: note.recordedAt });
  }
  return latest;
}

export const merchantsProjector = projector({
  name: 'merchants',
  tables: [
    'read.merchants',
    'read.merchant_words',
    'read.merchant_keywords',
    'read.search_words',
    'read.merchant_note_index',
  ],
  // Kept live with each merchant; a replay builds them from read.merchants at its end.
  derived: {
    tables: ['read.merchant_keywords', 'read.merchant_words'],
    builds: [
      async (tx) => {
        await tx.query(BUILD_KEYWORDS);
      },
      async (tx) => {
        await tx.query(BUILD_WORDS);
      },
    ],
  },
  // The replay finds merchants by id only, and searches nothing.
  deferredIndexes: [
    'read.merchants_fein_all',
    'read.merchants_created',
    'read.merchants_archived',
    'read.merchants_name_live',
    'read.merchant_keywords_pairs',
    'read.search_words_trgm',
  ],
  bulk: {
    order: [
      'MerchantAdded',
      'MerchantUpdated',
      'NoteAdded',
      'NoteUpdated',
      'NoteArchived',
      'MerchantArchived',
    ],
    handlers: {
      MerchantAdded: async (tx, events, batch, ctx) => {
        // A merchant's first notes mostly come in the same batch: their latest category goes into
        // the insert instead of an update of the row just written (see NoteAdded).
        const latest = latestVisibleNotes(batch);
        await tx.query(
          `with added as (
           insert into read.merchants (id, fein, legal_name, dba, street1, street2, city, state, business_phone,
             business_startdate, industry, account_id, user_id, created_at, last_note_category, last_note_at)
           select r."merchantId", r.fein, r."legalName", r.dba, r.street1, r.street2, r.city, r.state, r."businessPhone",
             r."businessStartdate"::date, r.industry, r."accountId", r."userId", r.at, r."lastNoteCategory", r."lastNoteAt"
           from json_to_recordset($1::json) as r("merchantId" uuid, fein text, "legalName" text, dba text, street1 text,
             street2 text, city text, state text, "businessPhone" text, "businessStartdate" text, industry text,
             "accountId" uuid, "userId" uuid, at timestamptz, "lastNoteCategory" text, "lastNoteAt" timestamptz)
           returning id, search_text)
           ${INDEX_WORDS('added', ctx)}`,
          [
            JSON.stringify(
              events.map((e) => {
                const note = latest.get(e.data.merchantId);
                return {
                  ...e.data,
                  at: e.recordedAt,
                  lastNoteCategory: note?.category,
                  lastNoteAt: note?.at,
                };
              }),
            ),
          ],
        );
      },
      MerchantUpdated: async (tx, events, _batch, ctx) => {
        const latest = lastBy(events, (e) => e.data.merchantId);
        // Live, every name a merchant had went into the vocabulary; a replay batch holding several
        // renames of one merchant must add the earlier names' words too (only the last is indexed).
        const earlier = events.filter((e) => !latest.includes(e));
        if (earlier.length > 0) {
          await tx.query(
            `insert into read.search_words (word)
             select distinct w
             from json_to_recordset($1::json) as r("merchantId" uuid, "legalName" text, dba text)
             join read.merchants m on m.id = r."merchantId" and m.archived_at is null,
             unnest(tsvector_to_array(to_tsvector('simple', lower(r."legalName" || ' ' || coalesce(r.dba, ''))))) as w
             on conflict do nothing`,
            [JSON.stringify(earlier.map((e) => e.data))],
          );
        }
        if (!ctx.replaying) await tx.query(UNINDEX, [latest.map((e) => e.data.merchantId)]);
        await tx.query(
          `with updated as (
           update read.merchants m set fein = r.fein, legal_name = r."legalName", dba = r.dba, street1 = r.street1,
             street2 = r.street2, city = r.city, state = r.state, business_phone = r."businessPhone",
             business_startdate = r."businessStartdate"::date, industry = r.industry, updated_at = r.at
           from json_to_recordset($1::json) as r("merchantId" uuid, fein text, "legalName" text, dba text, street1 text,
             street2 text, city text, state text, "businessPhone" text, "businessStartdate" text, industry text, at timestamptz)
           where m.id = r."merchantId"
           returning m.id, m.search_text, m.archived_at),
           live as (select id, search_text from updated where archived_at is null)
           ${INDEX_WORDS('live', ctx)}`,
          [JSON.stringify(latest.map((e) => ({ ...e.data, at: e.recordedAt })))],
        );
      },
      NoteAdded: async (tx, events, batch) => {
        await tx.query(
          `insert into read.merchant_note_index (note_id, merchant_id, category, at)
           select r."noteId", r."merchantId", r.category, r.at
           from json_to_recordset($1::json) as r("noteId" uuid, "merchantId" uuid, category text, at timestamptz)
           on conflict (note_id) do nothing`,
          [
            JSON.stringify(
              events.map((e) => ({
                noteId: e.data.noteId,
                merchantId: e.data.merchantId,
                category: e.data.category,
                at: e.recordedAt,
              })),
            ),
          ],
        );
        // Merchants added in this batch got their latest category with their insert.
        const added = new Set(
          batch
            .filter((e): e is ProjectedEvent<'MerchantAdded'> => e.type === 'MerchantAdded')
            .map((e) => e.data.merchantId),
        );
        const visible = events.filter((e) => isVisible(e) && !added.has(e.data.merchantId));
        if (visible.length === 0) return;
        await tx.query(
          `update read.merchants m set last_note_category = r.category, last_note_at = r.at
           from json_to_recordset($1::json) as r("merchantId" uuid, category text, at timestamptz)
           where m.id = r."merchantId"`,
          [
            JSON.stringify(
              lastBy(visible, (e) => e.data.merchantId).map((e) => ({
                merchantId: e.data.merchantId,
                category: e.data.category,
                at: e.recordedAt,
              })),
            ),
          ],
        );
      },
      NoteUpdated: async (tx, events) => {
        const latest = lastBy(events, (e) => e.data.noteId);
        await tx.query(
          `update read.merchant_note_index i set category = r.category
           from json_to_recordset($1::json) as r("noteId" uuid, category text) where i.note_id = r."noteId"`,
          [JSON.stringify(latest.map((e) => ({ noteId: e.data.noteId, category: e.data.category })))],
        );
        await tx.query(RECOMPUTE_LATEST, [[...new Set(events.map((e) => e.data.merchantId))]]);
      },
      NoteArchived: async (tx, events) => {
        await tx.query(
          'update read.merchant_note_index set archived = true where note_id = any($1::uuid[])',
          [events.map((e) => e.data.noteId)],
        );
        await tx.query(RECOMPUTE_LATEST, [[...new Set(events.map((e) => e.data.merchantId))]]);
      },
      MerchantArchived: async (tx, events, _batch, ctx) => {
        // An archived merchant leaves keyword search; its words stay in the vocabulary.
        if (!ctx.replaying) await tx.query(UNINDEX, [events.map((e) => e.data.merchantId)]);
        await tx.query(
          `update read.merchants m set archived_at = r.at, archive_reason = r.reason
           from json_to_recordset($1::json) as r("merchantId" uuid, reason text, at timestamptz) where m.id = r."merchantId"`,
          [
            JSON.stringify(
              events.map((e) => ({ merchantId: e.data.merchantId, reason: e.data.reason, at: e.recordedAt })),
            ),
          ],
        );
      },
    },
  },
});
