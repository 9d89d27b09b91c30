-- read.recompute_contribution in PL/pgSQL statements that plan once (issue 23). Every batch of searches
-- that found a merchant recomputes its accounts, and the version of migration 0017 cost about 2 ms a
-- call though its index scans took microseconds: it called SQL functions per account and window
-- (before, in_window, percent, each calling others), and each call was planned again. One set-based
-- statement doing the same planned in 1.7 ms, and its generic plan was ten times slower. Here each
-- statement is a simple look-up or upsert with scalar parameters, planned once per connection. The
-- arithmetic is 0017's: each window's start moves to `as_of` less its days, its stored "before" figures
-- move by what lies between the old start and the new, and its percentage counts what lies between the
-- new start and `as_of`, both included.
create or replace function read.recompute_contribution(accounts uuid[], as_of timestamptz) returns void
language plpgsql as $$
declare
  v_account uuid;
  v_days integer;
  v_added bigint;
  v_searched bigint;
  v_old_start timestamptz;
  v_new_start timestamptz;
  v_records_before bigint;
  v_searched_before bigint;
  v_sign integer;
  v_lo timestamptz;
  v_hi timestamptz;
  v_percents numeric[];
begin
  -- A day's start recomputes every other account: array_agg of none is null.
  foreach v_account in array coalesce(accounts, '{}') loop
    -- Everything the account added and searched up to `as_of`.
    v_added := coalesce((select t.records from read.contribution_totals t where t.account_id = v_account), 0)
      - (select coalesce(sum(a.records), 0) from read.contribution_additions a
          where a.account_id = v_account and a.added_at > as_of);
    v_searched := coalesce((select t.merchants from read.contribution_search_totals t where t.account_id = v_account), 0)
      - (select count(*) from read.contribution_searches s
          where s.account_id = v_account and s.last_searched_at > as_of);
    v_percents := '{}';
    foreach v_days in array array[90, 30, 14, 7] loop
      v_new_start := as_of - make_interval(days => v_days);
      select w.start_at, w.records_before, w.searched_before into v_old_start, v_records_before, v_searched_before
        from read.contribution_window_starts w where w.account_id = v_account and w.days = v_days;
      v_old_start := coalesce(v_old_start, '-infinity');
      v_sign := case when v_old_start > v_new_start then -1 else 1 end;
      v_lo := least(v_old_start, v_new_start);
      v_hi := greatest(v_old_start, v_new_start);
      v_records_before := coalesce(v_records_before, 0) + v_sign * (
        select coalesce(sum(a.records), 0) from read.contribution_additions a
         where a.account_id = v_account and a.added_at >= v_lo and a.added_at < v_hi);
      v_searched_before := coalesce(v_searched_before, 0) + v_sign * (
        select count(*) from read.contribution_searches s
         where s.account_id = v_account and s.last_searched_at >= v_lo and s.last_searched_at < v_hi);
      insert into read.contribution_window_starts as w (account_id, days, start_at, records_before, searched_before)
      values (v_account, v_days, v_new_start, v_records_before, v_searched_before)
      on conflict (account_id, days) do update
        set start_at = excluded.start_at, records_before = excluded.records_before,
            searched_before = excluded.searched_before;
      v_percents := v_percents || case when v_searched - v_searched_before = 0 then 100::numeric
        else round(100.0 * (v_added - v_records_before) / (v_searched - v_searched_before), 2) end;
    end loop;
    insert into read.account_contribution as c (account_id, ninety_day, month, two_week, week, computed_at)
    values (v_account, v_percents[1], v_percents[2], v_percents[3], v_percents[4], as_of)
    on conflict (account_id) do update
      set ninety_day = excluded.ninety_day, month = excluded.month, two_week = excluded.two_week,
          week = excluded.week, computed_at = excluded.computed_at;
  end loop;
end
$$;
