import { z } from 'zod';
import { many, one, sql } from '../db/typed-sql.ts';
import type { Pool } from '../db.ts';
import type { Migration } from '../migrations.ts';

/** One thing a process needs to do its work, checked on demand by /health and /ready. */
export interface Probe {
  name: string;
  /** What is wrong, in words anyone may read, when the check fails or does not answer in time. */
  failure: string;
  check(): Promise<ProbeResult>;
}
/**
 * `problem`: what is wrong, in words (shown to anyone); `status`: a word for the whole answer when this
 * probe fails (`starting`, `degraded`; default `unavailable`). Everything else is detail for operators
 * (ids, positions, errors), shown only on the loopback operations listener.
 */
export type ProbeResult = { ok: boolean; problem?: string; status?: string } & Record<string, unknown>;

/** How long a probe may take before it counts as failed: a hung database must not hang /health too. */
export const PROBE_TIMEOUT_MS = 2000;

async function bounded(probe: Probe, timeoutMs: number): Promise<ProbeResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ProbeResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, problem: probe.failure, error: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([
      probe
        .check()
        .then((r) => (r.ok || r.problem ? r : { ...r, problem: probe.failure }))
        .catch((err: unknown) => ({ ok: false, problem: probe.failure, error: describe(err) })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every probe side by side, each bounded in time; `ok` only when all are. */
export async function runProbes(
  probes: readonly Probe[],
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<{ ok: boolean; checks: Record<string, ProbeResult> }> {
  const results = await Promise.all(probes.map((p) => bounded(p, timeoutMs)));
  return {
    ok: results.every((r) => r.ok),
    checks: Object.fromEntries(probes.map((p, i) => [p.name, results[i]!])),
  };
}

/** The database answers a statement (a pool whose server is down fails at once or times out). */
export const databaseProbe = (pool: Pool): Probe => ({
  name: 'database',
  failure: 'The database does not answer.',
  async check() {
    const started = performance.now();
    await one(pool, sql.type(z.object({ ok: z.literal(1) }))`select 1 as ok`);
    return { ok: true, latency_ms: Math.round(performance.now() - started) };
  },
});

/** Every migration this build ships has been applied (a process on an older schema must not take traffic). */
export const migrationsProbe = (pool: Pool, expected: readonly Migration[]): Probe => ({
  name: 'migrations',
  failure: "This version's database changes are not all applied yet.",
  async check() {
    const rows = await many(pool, sql.type(z.object({ id: z.string() }))`select id from schema_migrations`);
    const applied = new Set(rows.map((r) => r.id));
    const missing = expected.map((m) => m.id).filter((id) => !applied.has(id));
    return missing.length === 0 ? { ok: true, applied: expected.length } : { ok: false, missing };
  },
});

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: string }).code;
    return `${code ? `${code}: ` : ''}${err.message || err.name}`.slice(0, 300);
  }
  return String(err).slice(0, 300);
}
