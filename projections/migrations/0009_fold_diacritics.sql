-- Keyword search folds diacritics the same way for names and for typed words: "cafe" finds
-- "Café Müller GmbH" as "muller" did. unaccent() is only STABLE because its dictionary could be
-- changed; named explicitly in a wrapper it is safe to use where PostgreSQL wants IMMUTABLE (a
-- generated column), the usual way to index unaccented text.
create extension if not exists unaccent;

create or replace function read.fold(text) returns text
  language sql immutable parallel safe strict
  as $$ select public.unaccent('public.unaccent'::regdictionary, lower($1)) $$;

alter table read.merchants drop column search_text;
alter table read.merchants
  add column search_text text generated always as (read.fold(legal_name || ' ' || coalesce(dba, ''))) stored;

-- The word index and the vocabulary again, from the folded names.
truncate read.merchant_words;
insert into read.merchant_words (word, name, merchant_id)
  select distinct w, m.search_text, m.id
  from read.merchants m, unnest(tsvector_to_array(to_tsvector('simple', m.search_text))) as w
  where m.archived_at is null;
insert into read.search_words (word)
  select distinct word from read.merchant_words on conflict do nothing;
