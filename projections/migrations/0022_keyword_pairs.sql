-- Keyword search of two words or more intersects instead of scanning (issue 31, item 4). The scan of
-- read.merchant_words reads every name with a word beginning with the longest word typed ("summit":
-- thousands at a million merchants) to keep the few that also have the others ("summit diner": a
-- dozen or two). Here each live merchant has one row whose `pairs` hold every pair of its name's
-- word beginnings ("dine summ" for "Summit Diner"), in a GIN index: two words typed look up the one
-- posting list of their pair, about as long as the answer, however common each word is alone.
--
-- A word's beginning (its token) is the word itself under three letters; its first four letters
-- when those are letters a-z or digits; else its first three. A word typed has the token of every
-- word of the name it may stand for (three letters or more: a word it begins; under three: the same
-- word), except a typed word of three letters, which begins words of the tokens it is, or it and one
-- more letter or digit (37 of them: the search looks up all). So the merchants holding a pair of the
-- typed words' tokens are all those the rules can find, and a few more ("dine summ" also holds
-- "Summer Dinette"): the search then checks each by the rules exactly as the scan does, a lexeme
-- (`words`) beginning with the longest word typed and a word of the name beginning with each other
-- one. The tokens are taken from both the lexemes (what the longest word is matched against) and the
-- name's runs of letters and digits in byte semantics (where a regular expression over the "C"
-- collated name finds a word's beginning: "com" in "amazon.com", "5mm" in "3.5mm").
--
-- A name of more than 16 distinct tokens (over 120 pairs) has the single key '*' instead, which every
-- search includes: a long name cannot cost the index a quadratic number of keys.
create function read.merchant_keyword_rows(ids uuid[], names text[])
returns table (merchant_id uuid, name text, words text[], pairs text[])
language sql immutable parallel safe as $$
  with named as materialized (
    select n.id, n.name, tsvector_to_array(to_tsvector('simple', n.name)) as words
    from unnest(ids, names) as n(id, name)),
  tokens as materialized (
    select distinct t.id, (case when length(t.x) < 3 then t.x
                                 when left(t.x, 4) collate "C" ~ '^[a-z0-9]{4}$' then left(t.x, 4)
                                 else left(t.x, 3) end) collate "C" as token
    from (select n.id, unnest(n.words) from named n
          union all select n.id, regexp_split_to_table(n.name collate "C", '[^[:alnum:]]+') from named n) as t(id, x)
    where t.x <> ''),
  paired as (
    select a.id, array_agg(a.token || ' ' || b.token order by a.token, b.token) as pairs, count(*) as n
    from tokens a join tokens b on b.id = a.id and a.token < b.token
    group by a.id)
  select n.id, n.name, n.words, case when p.n > 120 then '{*}' else coalesce(p.pairs, '{}') end
  from named n left join paired p on p.id = n.id
$$;

create table read.merchant_keywords (
  merchant_id uuid primary key,
  -- read.merchants.search_text, as read.merchant_words.name: the order of results and what the
  -- words typed are checked against.
  name        text collate "C" not null,
  -- the name's lexemes (read.merchant_words' words of the merchant): the word the order is by.
  words       text[] collate "C" not null,
  pairs       text[] collate "C" not null
);

-- The merchants already live.
insert into read.merchant_keywords (merchant_id, name, words, pairs)
  select k.merchant_id, k.name, k.words, k.pairs
  from (select array_agg(m.id) as ids, array_agg(m.search_text) as names
        from read.merchants m where m.archived_at is null) as live,
       read.merchant_keyword_rows(live.ids, live.names) as k;

-- A rebuild drops it and builds it once at the end. Live, new keys wait in a pending list that every
-- search reads through; a small one (128 kB, about a thousand merchants) keeps that read short.
create index merchant_keywords_pairs on read.merchant_keywords using gin (pairs)
  with (fastupdate = on, gin_pending_list_limit = 128);
