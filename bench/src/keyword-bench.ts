import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createPool, type Pool, type PoolClient, runMigrations } from '@mrn/platform';
import { KEYWORD_CROWDED, keywordKeys, keywordScan, keywordWords, SEARCH_STATEMENTS } from '@mrn/query-api';
import { allMigrations } from '@mrn/server';
import type { BenchServer } from './database.ts';
import { FIRST_WORDS, Rng, SECOND_WORDS } from './search-data.ts';
import { reusedDatabase } from './seeding.ts';
import { type Row, renderTable } from './table.ts';

export interface KeywordBenchOptions {
  /** A database the search suite kept (BENCH_KEEP_DATABASE): the merchants to search. */
  reuseDatabase: string | undefined;
  /** Terms per query shape. */
  terms: number;
  /** Runs of each term each way. */
  runs: number;
  /**
   * The keyword read tables copied this many times over, with fresh merchant ids, into a schema of
   * their own: the statements at that many times the seeded merchants without seeding them (every
   * name then comes `copies` times, as common names do).
   */
  copies: number;
  explain: boolean;
}

/** The suffixes names end with: words that go with every other word. */
const SUFFIXES = ['llc', 'inc', 'corp'];

/**
 * Issue 31, item 4: the keyword search's statements, as the server runs them before and after the
 * intersection, term by term on the same database, one connection, PostgreSQL's own CPU time per
 * search (its backend's, from /proc, whatever else the machine runs). Before: the scan of the longest
 * word's range of read.merchant_words. After: the look-up of read.merchant_keywords, and the scan when
 * more than KEYWORD_CROWDED merchants hold the key (once per process and key: then the scan only).
 * Each term's answers both ways are compared.
 */
export async function runKeywordBench(server: BenchServer, opts: KeywordBenchOptions): Promise<void> {
  if (!opts.reuseDatabase) {
    throw new Error(
      'the keyword suite measures a kept search database: run `BENCH_KEEP_DATABASE=1 npm run bench -- search` first, then BENCH_REUSE_DATABASE=<its name>',
    );
  }
  const db = reusedDatabase(server, opts.reuseDatabase);
  const pool = createPool(db.url, 2);
  try {
    // A database kept before migration 0024 gets read.merchant_keywords here.
    await runMigrations(pool, allMigrations());
    const tables = await keywordTables(pool, opts.copies);
    const { rows: sizes } = await pool.query<{ merchants: number; words: number }>(
      `select (select count(*) from ${tables.keywords})::int as merchants, (select count(*) from ${tables.words})::int as words`,
    );
    console.log(
      `bench:  ${sizes[0]!.merchants.toLocaleString('en-US')} live merchants (${sizes[0]!.words.toLocaleString('en-US')} rows of ${tables.words})` +
        `${opts.copies > 1 ? `: the database ${db.name}'s read tables copied ${opts.copies} times with fresh ids` : ` in ${db.name}`}; ` +
        `${opts.terms} terms per shape, each run ${opts.runs} times each way on one connection`,
    );
    console.log(
      `load:   ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' / ')} (1/5/15 min before the suite)`,
    );
    const client = await pool.connect();
    try {
      await measure(client, tables, opts);
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

interface KeywordTables {
  words: string;
  keywords: string;
  /** read.keyword_matches, or its copy over the copied table. */
  matches: string;
}

/** The read tables the statements run over: the seeded ones, or `copies` times them. */
async function keywordTables(pool: Pool, copies: number): Promise<KeywordTables> {
  if (copies <= 1) {
    return {
      words: 'read.merchant_words',
      keywords: 'read.merchant_keywords',
      matches: 'read.keyword_matches',
    };
  }
  const schema = `bench_keyword_x${copies}`;
  const exists = await pool.query('select 1 from pg_namespace where nspname = $1', [schema]);
  const tables = {
    words: `${schema}.merchant_words`,
    keywords: `${schema}.merchant_keywords`,
    matches: `${schema}.keyword_matches`,
  };
  // The function as the migration made it, over the copy (made again: the migration's may have changed).
  const copyFunction = async () => {
    const { rows } = await pool.query<{ definition: string }>(
      `select pg_get_functiondef('read.keyword_matches'::regproc) as definition`,
    );
    await pool.query(
      rows[0]!.definition
        .replace('read.keyword_matches', tables.matches)
        .replace('read.merchant_keywords', tables.keywords),
    );
  };
  if (exists.rowCount) {
    await copyFunction();
    return tables;
  }
  process.stderr.write(
    `  copying the keyword tables ${copies} times into ${schema} (kept for the next run)…\n`,
  );
  const client = await pool.connect();
  try {
    await client.query('set statement_timeout = 0');
    await client.query(`set maintenance_work_mem = '256MB'`);
    await client.query('begin');
    await client.query(`create schema ${schema}`);
    await client.query(
      `create table ${schema}.ids as select k.merchant_id as original, case when c = 0 then k.merchant_id else gen_random_uuid() end as id
       from read.merchant_keywords k, generate_series(0, ${copies - 1}) as c`,
    );
    await client.query(`create table ${tables.words} (like read.merchant_words including all)`);
    await client.query(`alter table ${tables.words} drop constraint merchant_words_pkey`);
    await client.query(
      `insert into ${tables.words} select w.word, w.name, i.id from read.merchant_words w join ${schema}.ids i on i.original = w.merchant_id`,
    );
    await client.query(`alter table ${tables.words} add primary key (word, name, merchant_id)`);
    await client.query(`create table ${tables.keywords} (like read.merchant_keywords including defaults)`);
    await client.query(
      `insert into ${tables.keywords} select i.id, k.name, k.words, k.pairs from read.merchant_keywords k join ${schema}.ids i on i.original = k.merchant_id`,
    );
    await client.query(`alter table ${tables.keywords} add primary key (merchant_id)`);
    // As the migration made the original.
    const { rows: index } = await client.query<{ definition: string }>(
      `select pg_get_indexdef('read.merchant_keywords_pairs'::regclass) as definition`,
    );
    await client.query(
      index[0]!.definition.replace(
        'merchant_keywords_pairs ON read.merchant_keywords',
        `merchant_keywords_pairs ON ${tables.keywords}`,
      ),
    );
    await client.query('commit');
    await client.query(`vacuum analyze ${tables.words}`);
    await client.query(`vacuum analyze ${tables.keywords}`);
    await copyFunction();
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return tables;
}

/** The shapes measured: how people type, as the search suite's data names merchants. */
function shapes(rng: Rng): Record<string, () => string> {
  const first = () => rng.pick(FIRST_WORDS).toLowerCase();
  const second = () => rng.pick(SECOND_WORDS).toLowerCase();
  const cut = (word: string, n: number) => word.slice(0, n);
  return {
    'one word': () => (rng.chance(0.5) ? first() : second()),
    'one word, first 3 letters': () => cut(first(), 3),
    'two words (a name)': () => `${first()} ${second()}`,
    'two words, reversed': () => `${second()} ${first()}`,
    'two words, last typed to 1 letter': () => `${first()} ${cut(second(), 1)}`,
    'two words, last typed to 2 letters': () => `${first()} ${cut(second(), 2)}`,
    'two words, last typed to 3 letters': () => `${first()} ${cut(second(), 3)}`,
    'two words, last typed to 4 letters': () => `${first()} ${cut(second(), 4)}`,
    'two words of 3 letters': () => `${cut(first(), 3)} ${cut(second(), 3)}`,
    'three words (a name and its suffix)': () => `${first()} ${second()} ${rng.pick(SUFFIXES)}`,
    'two first words (rare together)': () => `${first()} ${first()}`,
    'a word and a suffix (common together)': () => `${first()} ${rng.pick(SUFFIXES)}`,
    'a word and "co" (common, whole word)': () => `${first()} co`,
    'a word and an unknown word': () => `${first()} qzxv`,
  };
}

/** A way of finding a keyword's first 26 merchants: its answer and how it got it. */
type Way = (
  words: readonly string[],
) => Promise<{ ids: string[]; path: 'scan' | 'pairs' | 'pairs, then scan' }>;

async function measure(client: PoolClient, tables: KeywordTables, opts: KeywordBenchOptions): Promise<void> {
  const scanText = SEARCH_STATEMENTS.keywordScan.replace('read.merchant_words', tables.words);
  const pairsText = SEARCH_STATEMENTS.keywordPairs.replace('read.keyword_matches', tables.matches);
  if (pairsText === SEARCH_STATEMENTS.keywordPairs && tables.matches !== 'read.keyword_matches') {
    throw new Error(
      'the search no longer calls read.keyword_matches: the bench measures the wrong statement',
    );
  }
  // Named statements, as the server's: planned per execution or once, as PostgreSQL chooses for them.
  const scan: Way = async (words) => {
    const { rows } = await client.query<{ merchant_id: string }>({
      name: `bench_keyword_scan_${tables.words}`,
      text: scanText,
      values: keywordScan(words),
    });
    return { ids: [...new Set(rows.map((r) => r.merchant_id))].slice(0, 26), path: 'scan' };
  };
  const intersect = (remember: Set<string> | undefined): Way => {
    return async (words) => {
      const keys = keywordKeys(words);
      const known = keys.join('|');
      if (keys.length === 0 || remember?.has(known)) return scan(words);
      const { rows } = await client.query<{ ids: string[] | null; found: number }>({
        name: `bench_keyword_pairs_${tables.matches}`,
        text: pairsText,
        values: [...keywordScan(words), keys],
      });
      if (rows[0]!.found <= KEYWORD_CROWDED) return { ids: rows[0]!.ids ?? [], path: 'pairs' };
      remember?.add(known);
      return { ids: (await scan(words)).ids, path: 'pairs, then scan' };
    };
  };
  // EXPLAIN shows a SQL function as one node: the body of read.keyword_matches is explained instead,
  // its parameters by position, with the settings the function runs with.
  const matchesText = await functionBody(client, tables.matches);
  const cpu = backendCpu(client);
  const rng = new Rng(0x31);
  const table: Row[] = [];
  const plans: string[] = [];
  let mismatches = 0;
  for (const [shape, term] of Object.entries(shapes(rng))) {
    const terms = Array.from({ length: opts.terms }, term);
    // Answers both ways, and the paths the search takes.
    const paths = new Map<string, number>();
    let answered = 0;
    for (const t of terms) {
      const words = keywordWords(t);
      const before = await scan(words);
      const after = await intersect(undefined)(words);
      paths.set(after.path, (paths.get(after.path) ?? 0) + 1);
      answered += before.ids.length;
      if (before.ids.join() !== after.ids.join()) {
        mismatches++;
        console.log(
          `MISMATCH '${t}': the scan answers ${before.ids.length}, the intersection ${after.ids.length}`,
        );
      }
    }
    const timed = async (way: Way) => {
      const perTerm: number[] = [];
      for (const t of terms) {
        const words = keywordWords(t);
        await way(words);
        const started = cpu.ms();
        for (let run = 0; run < opts.runs; run++) await way(words);
        perTerm.push((cpu.ms() - started) / opts.runs);
      }
      return perTerm;
    };
    const before = await timed(scan);
    // A crowded key's first search reads its posting list; the process then remembers it.
    const first = await timed(intersect(undefined));
    const remembered = await timed(intersect(new Set()));
    table.push([
      shape,
      `'${terms[0]}'`,
      (answered / terms.length).toFixed(1),
      [...paths].map(([p, n]) => `${n} ${p}`).join(', '),
      stats(before),
      stats(first),
      stats(remembered),
    ]);
    plans.push(await explainBoth(client, terms[0]!, scanText, matchesText, opts.explain));
  }
  console.log(
    `\nPostgreSQL CPU per search (its backend's, ${cpu.source}), mean | p90 over the terms, ms; answers: merchants found (at most 26)`,
  );
  console.log(
    renderTable(
      [
        { header: 'shape' },
        { header: 'e.g.' },
        { header: 'found', align: 'right' },
        { header: 'after: path' },
        { header: 'before: scan', align: 'right' },
        { header: 'after', align: 'right' },
        { header: 'after, crowded keys known', align: 'right' },
      ],
      table,
    ),
  );
  console.log(`answers compared term by term: ${mismatches === 0 ? 'all the same' : `${mismatches} DIFFER`}`);
  console.log(
    "\nEXPLAIN (ANALYZE, BUFFERS), each shape's first term, warm; before (scan) and after (intersection):",
  );
  console.log(plans.join('\n'));
  if (mismatches > 0) throw new Error(`${mismatches} keyword answers differ`);
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return `${mean.toFixed(3)} | ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(3)}`;
};

/** CPU time of the connection's backend process: /proc/<pid>/schedstat (ns), or wall time elsewhere. */
function backendCpu(client: PoolClient) {
  const pid = (client as unknown as { processID?: number }).processID;
  const read = () => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  try {
    read();
    return { source: `/proc/${pid}/schedstat`, ms: read };
  } catch {
    return { source: 'wall time: /proc not readable', ms: () => performance.now() };
  }
}

async function explainBoth(
  client: PoolClient,
  term: string,
  scanText: string,
  matchesText: string,
  full: boolean,
): Promise<string> {
  const words = keywordWords(term);
  const keys = keywordKeys(words);
  const cases = [
    { label: 'before', sql: scanText, params: keywordScan(words) as unknown[] },
    ...(keys.length > 0
      ? [{ label: 'after', sql: matchesText, params: [...keywordScan(words), keys, 26, KEYWORD_CROWDED] }]
      : []),
  ];
  const lines = [`  '${term}'${keys.length === 0 ? ' (no keys: the scan answers after as before)' : ''}`];
  await client.query('set enable_seqscan = off');
  for (const c of cases) {
    let plan: string[] = [];
    for (let run = 0; run < 3; run++) {
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, buffers) ${c.sql}`,
        c.params,
      );
      plan = rows.map((r) => r['QUERY PLAN']);
    }
    const all = plan.join('\n');
    const time = (what: string) => /(\d+\.\d+) ms/.exec(plan.find((l) => l.includes(what)) ?? '')?.[1] ?? '?';
    const nodes = plan
      .filter((l) => /Scan|Rows Removed|Heap Blocks/.test(l))
      .map((l) =>
        l
          .trim()
          .replace(/ \(cost=[^)]*\)/, '')
          .replace(/\s+/g, ' '),
      )
      .slice(0, 4);
    const buffers = /Buffers: shared hit=(\d+)/.exec(all)?.[1] ?? '?';
    lines.push(
      `    ${c.label.padEnd(6)} ${time('Execution Time').padStart(6)} ms execution + ${time('Planning Time')} ms planning, ${buffers} buffers: ${nodes.join(' | ')}`,
    );
    if (full) lines.push(plan.map((l) => `           ${l}`).join('\n'));
  }
  await client.query('reset enable_seqscan');
  return lines.join('\n');
}

/** The body of read.keyword_matches (or its copy: `matches`), its named parameters as $1…$7. */
async function functionBody(client: PoolClient, matches: string): Promise<string> {
  const { rows } = await client.query<{ body: string }>(
    'select prosrc as body from pg_proc where oid = $1::regproc',
    [matches],
  );
  const names = ['lo', 'hi', 'likes', 'starts', 'keys', 'n', 'crowded'];
  return names.reduce(
    (sql, name, i) => sql.replace(new RegExp(`\\b${name}\\b(?![.(])`, 'g'), () => `$${i + 1}`),
    rows[0]!.body,
  );
}
