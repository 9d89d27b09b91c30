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

-- A name's pairs, from its lexemes (`words`) and the name itself. PL/pgSQL: a set-based statement of
-- the same made every projection batch of a merchant or two plan a dozen nodes again; this is planned
-- once. The tokens are compared in byte order (collation "C"), as the search orders a pair's two. A
-- name of letters a-z and spaces only is words the parser keeps whole (each an `asciiword`): its runs
-- are its lexemes, and the split is skipped (a third of the function's time); a digit can part them
-- ("1e5x" is '1e5' and 'x'), '&' too ("&amp;" is an entity, no lexeme).
create function read.merchant_keyword_pairs(name text, words text[]) returns text[]
language plpgsql immutable strict parallel safe as $$
declare
  tokens text[] collate "C" := '{}';
  w text collate "C";
  t text collate "C";
  u text collate "C";
  pairs text[] := '{}';
begin
  foreach w in array case when name collate "C" ~ '^[a-z ]*$' then words
                          else words || regexp_split_to_array(name collate "C", '[^[:alnum:]]+') end
  loop
    continue when w = '';
    t := case when length(w) < 3 then w when left(w, 4) ~ '^[a-z0-9]{4}$' then left(w, 4) else left(w, 3) end;
    continue when t = any(tokens);
    if cardinality(tokens) = 16 then
      return '{*}';
    end if;
    foreach u in array tokens loop
      pairs := pairs || (case when t < u then t || ' ' || u else u || ' ' || t end);
    end loop;
    tokens := tokens || t;
  end loop;
  return pairs;
end $$;

create table read.merchant_keywords (
  merchant_id uuid primary key,
  -- read.merchants.search_text, as read.merchant_words.name: the order of results and what the
  -- words typed are checked against.
  name        text collate "C" not null,
  -- the name's lexemes (read.merchant_words' words of the merchant): the word the order is by.
  words       text[] collate "C" not null,
  pairs       text[] collate "C" not null
);

-- The intersection's look-up, for query-api's keyword search (KEYWORD_PAIRS there says what it
-- answers): the merchants holding one of `keys`, at most `crowded` + 1 of them, checked by the rules
-- as the scan checks them (a lexeme in [lo, hi), `likes` and `starts` over the name), the first `n` in
-- the scan's order, and how many held a key. A function for the settings it runs with: the GIN
-- index always (given a three-letter word's 37 keys, the planner's estimate made a sequential scan
-- with an early stop look cheaper, and it read the whole table), planned once per connection (the
-- keys differ on every call, the plan does not).
create function read.keyword_matches(lo text, hi text, likes text[], starts text[], keys text[], n int, crowded int)
returns table (ids uuid[], found int)
language sql stable parallel safe
set enable_seqscan = off
set plan_cache_mode = force_generic_plan
as $$
  select (array_agg(k.merchant_id order by d.word, k.name, k.merchant_id)
            filter (where d.word is not null and k.name like all(likes) and k.name ~ all(starts)))[1:n],
         count(*)::int
  from (select merchant_id, name, words from read.merchant_keywords where pairs && keys limit crowded + 1) as k
  left join lateral (select min(w) as word from unnest(k.words) as w where w >= lo and w < hi) as d on true
$$;

-- The merchants already live.
insert into read.merchant_keywords (merchant_id, name, words, pairs)
  select m.id, m.search_text, l.words, read.merchant_keyword_pairs(m.search_text, l.words)
  from read.merchants m, lateral (select tsvector_to_array(to_tsvector('simple', m.search_text)) as words) as l
  where m.archived_at is null;

-- A rebuild drops it and builds it once at the end. Live, a merchant's keys go straight into the
-- index (fastupdate off): a pending list of new keys is read through by every search, key by key of
-- the search's, and a full one of 128 kB (160 merchants) cost a search of two words 0.17 ms more and
-- one of a three-letter word's 37 keys 1.4 ms more, where writing directly costs a merchant added
-- about 30 µs more than the pending list does.
create index merchant_keywords_pairs on read.merchant_keywords using gin (pairs) with (fastupdate = off);
