-- Keyword search, word by word. The trigram `like '%…%'` with a similarity sort had to fetch and
-- score every one of the thousands of names a common word matches. Here each word of a live
-- merchant's name and DBA is a row of a b-tree ordered by (word, name): the first 26 merchants with a
-- word beginning "premier" are an index-only range scan, however many there are.
drop index if exists read.merchants_search_trgm;

create table read.merchant_words (
  word        text collate "C" not null,
  -- legal name and DBA folded (read.merchants.search_text): the order of results, and what the
  -- other words of a keyword are matched against without visiting the merchant.
  name        text collate "C" not null,
  merchant_id uuid not null,
  primary key (word, name, merchant_id)
);

-- Every word ever seen in a name: the vocabulary a misspelt keyword is corrected against, a few
-- thousand rows where a similarity search over a million names took hundreds of milliseconds.
create table read.search_words (
  word text collate "C" primary key
);
create index search_words_trgm on read.search_words using gin (word gin_trgm_ops);

insert into read.merchant_words (word, name, merchant_id)
  select distinct w, m.search_text, m.id
  from read.merchants m, unnest(tsvector_to_array(to_tsvector('simple', m.search_text))) as w
  where m.archived_at is null;
insert into read.search_words (word)
  select distinct word from read.merchant_words on conflict do nothing;
