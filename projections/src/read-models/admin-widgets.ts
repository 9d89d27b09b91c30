import { lastBy, type ProjectedEvent, projector } from '../projector.ts';

// The platform admins' widget figures (accounts spec §2 "Widgets"), kept as counters that every change
// moves by exactly its own effect: live merchants and notes per account, live merchants per category of
// their latest note, and each merchant's latest live note for the Recently Reported table. Every handler
// is one or two statements per batch whatever its size (a replay feeds thousands of adds at once).
//
// A merchant's live notes sit on its row (`notes`: note id → [account id, category, added at]), which
// is all an archive needs to know; a note is never looked up elsewhere.

/**
 * Moves live merchants between categories: `changed` yields each changed merchant's bucket before and
 * after (its latest note's category while it is live and has one, else null).
 */
const COUNT_CATEGORY_MOVES = (changed: string) => `
  insert into read.widget_category_counts as c (category, merchants)
  select category, sum(d)::int from (
      select before as category, -1 as d from ${changed} as b where before is not null
      union all
      select after, 1 from ${changed} as a where after is not null) x
   group by category having sum(d) <> 0
  on conflict (category) do update set merchants = c.merchants + excluded.merchants`;

/** Adds `rows` (account_id, merchants, notes: signed changes) to the per-account counters. */
const COUNT_ACCOUNTS = (rows: string) => `
  insert into read.widget_account_counts as c (account_id, merchants, notes)
  select account_id, sum(merchants)::int, sum(notes)::int from ${rows} as r group by account_id
  on conflict (account_id) do update set merchants = c.merchants + excluded.merchants, notes = c.notes + excluded.notes`;

/** Counter changes worked out from the events themselves (adds): $1 = [{ accountId, merchants, notes }]. */
const ADD_TO_ACCOUNTS = COUNT_ACCOUNTS(`(select "accountId" as account_id, merchants, notes
  from json_to_recordset($1::json) as x("accountId" uuid, merchants int, notes int))`);

/** The change of each merchant's row, as it was (`o`, a self-join reads the row before the update). */
const BUCKETS = `case when not o.archived then o.latest_category end as before,
                 case when not m.archived then m.latest_category end as after`;

const ADD_MERCHANTS = `
  with added as (
    insert into read.widget_merchants (merchant_id, account_id, latest_category, latest_at, latest_note_id, notes)
    select r."merchantId", r."accountId", r.category, r.at, r."noteId", coalesce(r.notes, '{}')
      from json_to_recordset($1::json)
        as r("merchantId" uuid, "accountId" uuid, category text, at timestamptz, "noteId" uuid, notes jsonb)
    returning latest_category as after)
  ${COUNT_CATEGORY_MOVES('(select null::text as before, after from added)')}`;

/** Notes on merchants of earlier batches: onto their rows, the last one (log order) their latest. */
const ADD_NOTES = `
  with s as (select * from json_to_recordset($1::json)
               as r(id uuid, notes jsonb, category text, at timestamptz, note_id uuid)),
  changed as (
    update read.widget_merchants m
       set notes = m.notes || s.notes, latest_category = s.category, latest_at = s.at, latest_note_id = s.note_id
      from s, read.widget_merchants o
     where m.merchant_id = s.id and o.merchant_id = m.merchant_id
    returning ${BUCKETS})
  ${COUNT_CATEGORY_MOVES('changed')}`;

/** $1 = [{ id: merchant, categories: { noteId: category } }]: live notes take their new category. */
const UPDATE_NOTES = `
  with s as (select * from json_to_recordset($1::json) as r(id uuid, categories jsonb)),
  changed as (
    update read.widget_merchants m
       set notes = m.notes || coalesce(
             (select jsonb_object_agg(e.key, jsonb_set(m.notes -> e.key, '{1}', to_jsonb(e.value)))
                from jsonb_each_text(s.categories) as e where m.notes ? e.key), '{}'),
           latest_category = case when m.notes ? (m.latest_note_id::text)
                                  then coalesce(s.categories ->> (m.latest_note_id::text), m.latest_category)
                                  else m.latest_category end
      from s, read.widget_merchants o
     where m.merchant_id = s.id and o.merchant_id = m.merchant_id
    returning ${BUCKETS})
  ${COUNT_CATEGORY_MOVES('changed')}`;

/** $1 = [{ id: merchant, note_ids }]: the notes leave the row, and their accounts' counters. */
const ARCHIVE_NOTES = `
  with s as (select * from json_to_recordset($1::json) as r(id uuid, note_ids text[])),
  changed as (
    update read.widget_merchants m set notes = m.notes - s.note_ids
      from s, read.widget_merchants o
     where m.merchant_id = s.id and o.merchant_id = m.merchant_id
    returning o.notes as before, s.note_ids)
  ${COUNT_ACCOUNTS(`(select ((c.before -> n) ->> 0)::uuid as account_id, 0 as merchants, -1 as notes
                       from changed c, unnest(c.note_ids) as n where c.before ? n)`)}`;

/**
 * After an archive took a merchant's latest note away: its newest remaining live note, or none. Only
 * merchants whose latest note was archived are recomputed.
 */
const RECOMPUTE_LATEST = `
  with s as (
    select m.merchant_id as id, l.category, l.at, l.note_id
      from read.widget_merchants m
      left join lateral (
        select e.value ->> 1 as category, (e.value ->> 2)::timestamptz as at, e.key::uuid as note_id
          from jsonb_each(m.notes) as e
         order by 2 desc, 3 desc limit 1) l on true
     where m.merchant_id = any($1::uuid[]) and m.latest_note_id = any($2::uuid[])),
  changed as (
    update read.widget_merchants m
       set latest_category = s.category, latest_at = s.at, latest_note_id = s.note_id
      from s, read.widget_merchants o
     where m.merchant_id = s.id and o.merchant_id = m.merchant_id
    returning ${BUCKETS})
  ${COUNT_CATEGORY_MOVES('changed')}`;

/** An archived merchant leaves every figure, and its live notes with it. */
const ARCHIVE_MERCHANTS = `
  with merchants as (
    update read.widget_merchants m set archived = true, notes = '{}'
      from read.widget_merchants o
     where m.merchant_id = any($1::uuid[]) and o.merchant_id = m.merchant_id and not m.archived
    returning m.account_id, o.notes, o.latest_category as before, null::text as after),
  categories as (${COUNT_CATEGORY_MOVES('merchants')})
  ${COUNT_ACCOUNTS(`(select account_id, -1 as merchants, 0 as notes from merchants
                     union all
                     select ((e.value) ->> 0)::uuid, 0, -1 from merchants, jsonb_each(merchants.notes) as e)`)}`;

type NoteAdded = ProjectedEvent<'NoteAdded'>;

type NotesOfMerchant = { notes: Record<string, [string, string, Date]>; last: NoteAdded };
const notesOfBatches = new WeakMap<readonly ProjectedEvent[], Map<string, NotesOfMerchant>>();

/**
 * Each merchant's notes added in the batch, as its row keeps them, and the last one (its latest):
 * worked out once per batch, for both the merchants' inserts and the notes of merchants added before.
 */
function notesByMerchant(batch: readonly ProjectedEvent[]): Map<string, NotesOfMerchant> {
  let byMerchant = notesOfBatches.get(batch);
  if (byMerchant) return byMerchant;
  byMerchant = new Map();
  for (const event of batch) {
    if (event.type !== 'NoteAdded') continue;
    const e = event as NoteAdded;
    let entry = byMerchant.get(e.data.merchantId);
    if (!entry) {
      entry = { notes: {}, last: e };
      byMerchant.set(e.data.merchantId, entry);
    }
    entry.notes[e.data.noteId] = [e.data.accountId, e.data.category, e.recordedAt];
    entry.last = e;
  }
  notesOfBatches.set(batch, byMerchant);
  return byMerchant;
}

const latestOf = (e: NoteAdded) => ({ category: e.data.category, at: e.recordedAt, noteId: e.data.noteId });

/** Added merchants and notes per account, as counter changes. */
function additions(events: readonly { data: { accountId: string } }[], column: 'merchants' | 'notes') {
  const byAccount = new Map<string, number>();
  for (const e of events) byAccount.set(e.data.accountId, (byAccount.get(e.data.accountId) ?? 0) + 1);
  return JSON.stringify(
    [...byAccount].map(([accountId, n]) => ({
      accountId,
      merchants: column === 'merchants' ? n : 0,
      notes: column === 'notes' ? n : 0,
    })),
  );
}

export const adminWidgetsProjector = projector({
  name: 'admin_widgets',
  tables: ['read.widget_merchants', 'read.widget_account_counts', 'read.widget_category_counts'],
  // The replay finds merchants by primary key only.
  deferredIndexes: ['read.widget_merchants_recent', 'read.widget_merchants_recent_category'],
  bulk: {
    order: ['MerchantAdded', 'NoteAdded', 'NoteUpdated', 'NoteArchived', 'MerchantArchived'],
    handlers: {
      MerchantAdded: async (tx, events, batch) => {
        // A merchant comes with its first notes, mostly in the same batch: they go into its insert
        // instead of an update of the row just written (NoteAdded leaves these merchants alone).
        const notes = notesByMerchant(batch);
        await tx.query({
          name: 'mrn_widgets_add_merchants',
          text: ADD_MERCHANTS,
          values: [
            JSON.stringify(
              events.map((e) => {
                const own = notes.get(e.data.merchantId);
                return {
                  merchantId: e.data.merchantId,
                  accountId: e.data.accountId,
                  ...(own ? { ...latestOf(own.last), notes: own.notes } : {}),
                };
              }),
            ),
          ],
        });
        await tx.query({
          name: 'mrn_widgets_count_adds',
          text: ADD_TO_ACCOUNTS,
          values: [additions(events, 'merchants')],
        });
      },
      NoteAdded: async (tx, events, batch) => {
        await tx.query({
          name: 'mrn_widgets_count_adds',
          text: ADD_TO_ACCOUNTS,
          values: [additions(events, 'notes')],
        });
        const added = new Set(
          batch
            .filter((e): e is ProjectedEvent<'MerchantAdded'> => e.type === 'MerchantAdded')
            .map((e) => e.data.merchantId),
        );
        const later = [...notesByMerchant(batch)].filter(([merchantId]) => !added.has(merchantId));
        if (later.length === 0) return;
        await tx.query({
          name: 'mrn_widgets_add_notes',
          text: ADD_NOTES,
          values: [
            JSON.stringify(
              later.map(([id, { notes, last }]) => ({
                id,
                notes,
                category: last.data.category,
                at: last.recordedAt,
                note_id: last.data.noteId,
              })),
            ),
          ],
        });
      },
      NoteUpdated: async (tx, events) => {
        const byMerchant = new Map<string, Record<string, string>>();
        for (const e of lastBy(events, (x) => x.data.noteId)) {
          const categories = byMerchant.get(e.data.merchantId) ?? {};
          categories[e.data.noteId] = e.data.category;
          byMerchant.set(e.data.merchantId, categories);
        }
        await tx.query({
          name: 'mrn_widgets_update_notes',
          text: UPDATE_NOTES,
          values: [JSON.stringify([...byMerchant].map(([id, categories]) => ({ id, categories })))],
        });
      },
      NoteArchived: async (tx, events) => {
        const byMerchant = new Map<string, string[]>();
        for (const e of events)
          byMerchant.set(e.data.merchantId, [...(byMerchant.get(e.data.merchantId) ?? []), e.data.noteId]);
        await tx.query({
          name: 'mrn_widgets_archive_notes',
          text: ARCHIVE_NOTES,
          values: [JSON.stringify([...byMerchant].map(([id, note_ids]) => ({ id, note_ids })))],
        });
        await tx.query({
          name: 'mrn_widgets_recompute_latest',
          text: RECOMPUTE_LATEST,
          values: [[...byMerchant.keys()], events.map((e) => e.data.noteId)],
        });
      },
      MerchantArchived: async (tx, events) => {
        await tx.query({
          name: 'mrn_widgets_archive_merchants',
          text: ARCHIVE_MERCHANTS,
          values: [[...new Set(events.map((e) => e.data.merchantId))]],
        });
      },
    },
  },
  // A counter back at zero is dropped: whether a transient state made its row depends on how the log
  // was cut into batches, and a rebuild must give exactly the rows live tailing gave.
  afterBatch: async (tx) => {
    await tx.query({
      name: 'mrn_widgets_drop_zero_categories',
      text: 'delete from read.widget_category_counts where merchants = 0',
    });
    await tx.query({
      name: 'mrn_widgets_drop_zero_accounts',
      text: 'delete from read.widget_account_counts where merchants = 0 and notes = 0',
    });
  },
});
