import { z } from 'zod';
import { exec, maybeOne, sql } from '../db/typed-sql.ts';
import type { Queryable } from '../db.ts';
import { START } from '../event-store/position.ts';
import type { Position } from '../event-store/types.ts';

/** Where every consumer's progress is announced, as `ProgressNotice` JSON. */
export const PROGRESS_CHANNEL = 'mrn_progress';

/** What a consumer process says after each batch. */
export interface ProgressNotice {
  /** The batch's last position. */
  p: Position;
  /** The consumers (checkpoint names) now at or past `p`. */
  n: string[];
  /** Those among them that committed events they handle (their read model changed). */
  a: string[];
}

/**
 * Another process moved this checkpoint since it was read: the lease was lost (the holder's connection
 * dropped and a standby took over) or an operator rebuilt the consumer. The batch rolls back.
 */
export class LeaseLost extends Error {
  constructor(readonly consumer: string) {
    super(`${consumer}: its checkpoint was moved by another process`);
    this.name = 'LeaseLost';
  }
}

const Checkpoint = z.object({ name: z.string(), position: z.string() });

/** The checkpoint of a consumer that follows a group's: it reads `@<group>`. */
export const FOLLOWS = '@';
export const followsGroup = (group: string): string => `${FOLLOWS}${group}`;

/**
 * A consumer's position: its own checkpoint, or its group's when it follows one (`followsGroup`).
 * Its row also says whether it is still building (`building`).
 */
const RESOLVED = `select c.name, coalesce(g.position, c.position) as position, c.building
  from subscription_checkpoints c
  left join subscription_checkpoints g on left(c.position, 1) = '${FOLLOWS}' and g.name = substr(c.position, 2)`;

// Reading and setting checkpoints happens at a consumer's start, a lease taken over, a notice missed
// (not per batch): slonik tokens with zod rows. Moving them after each batch (`advanceCheckpoint`,
// `publishProgress`) stays plain pg, as every statement of the batch path does (issue 22 item 9).
export async function readCheckpoint(db: Queryable, name: string): Promise<Position> {
  const row = await maybeOne(
    db,
    sql.prepared('mrn_read_checkpoint', Checkpoint.pick({ position: true }))`
      select position from subscription_checkpoints where name = ${name}`,
  );
  const position = row?.position ?? START;
  if (!position.startsWith(FOLLOWS)) return position;
  return readCheckpoint(db, position.slice(FOLLOWS.length));
}

/** Each named consumer's position (a follower's is its group's), and which of them are building. */
export async function readCheckpoints(
  db: Queryable,
  names?: readonly string[],
): Promise<Map<string, Position>> {
  return new Map([...(await readCheckpointStates(db, names))].map(([n, s]) => [n, s.position]));
}

export async function readCheckpointStates(
  db: Queryable,
  names?: readonly string[],
): Promise<Map<string, { position: Position; building: boolean }>> {
  const { rows } = await db.query<{ name: string; position: string; building: boolean }>(
    names ? `${RESOLVED} where c.name = any($1::text[])` : RESOLVED,
    names ? [names] : [],
  );
  return new Map(
    rows
      // A follower whose group has no row yet has no position either.
      .filter((r) => !r.position.startsWith(FOLLOWS))
      .map((r) => [r.name, { position: r.position, building: r.building }]),
  );
}

/**
 * A consumer's checkpoint at `position` unless it has one: where a new consumer begins when what came
 * before it is none of its business (a reactor added to a running network starts at the log's head).
 */
export async function startCheckpointAt(db: Queryable, name: string, position: Position): Promise<void> {
  await db.query(
    `insert into subscription_checkpoints (name, position, updated_at) values ($1, $2, now())
     on conflict (name) do nothing`,
    [name, position],
  );
}

/**
 * Moves a checkpoint from `from` to `to` inside the caller's transaction, only if it is still at
 * `from`: the fence that keeps a batch from being applied twice when two processes both believe they
 * hold a consumer's lease (the row lock serialises them; the second finds the checkpoint moved and
 * rolls back with `LeaseLost`).
 */
export async function advanceCheckpoint(
  tx: Queryable,
  name: string,
  from: Position,
  to: Position,
): Promise<void> {
  const { rowCount } = await tx.query({
    name: 'mrn_advance_checkpoint',
    text: `insert into subscription_checkpoints (name, position, updated_at) values ($1, $2, now())
           on conflict (name) do update set position = excluded.position, updated_at = now()
            where subscription_checkpoints.position = $3`,
    values: [name, to, from],
  });
  if (rowCount === 0) throw new LeaseLost(name);
}

/**
 * After a batch: moves the checkpoints of the consumers that had nothing in it (one statement for all,
 * not a commit each: skipping events it does not handle changes nothing a consumer wrote, so only
 * forward) and tells every process how far they all are.
 */
export async function publishProgress(
  db: Queryable,
  notice: ProgressNotice,
  idle: readonly string[],
): Promise<void> {
  await db.query({
    name: 'mrn_publish_progress',
    text: `with moved as (
             insert into subscription_checkpoints (name, position, updated_at)
             select name, $1, now() from unnest($2::text[]) as name
             on conflict (name) do update set position = excluded.position, updated_at = now()
              where subscription_checkpoints.position < excluded.position returning 1)
           select pg_notify('${PROGRESS_CHANNEL}', $3)`,
    values: [notice.p, idle, JSON.stringify(notice)],
  });
}

/**
 * `advanceCheckpoint` for several consumers at one position, and the progress notice, in one statement
 * of the caller's transaction (sent only if it commits): the projections runner applies all its
 * projectors in one transaction per batch. Throws `LeaseLost` naming the first whose checkpoint moved.
 */
export async function advanceCheckpointsAndPublish(
  tx: Queryable,
  names: readonly string[],
  from: Position,
  notice: ProgressNotice,
): Promise<void> {
  const { rows } = await tx.query<{ moved: string[] }>({
    name: 'mrn_advance_checkpoints',
    text: `with moved as (
             insert into subscription_checkpoints (name, position, updated_at)
             select name, $1, now() from unnest($2::text[]) as name
             on conflict (name) do update set position = excluded.position, updated_at = now()
              where subscription_checkpoints.position = $3
             returning name)
           select coalesce((select array_agg(name) from moved), '{}') as moved, pg_notify('${PROGRESS_CHANNEL}', $4)`,
    values: [notice.p, names, from, JSON.stringify(notice)],
  });
  const moved = new Set(rows[0]?.moved ?? []);
  const lost = names.find((n) => !moved.has(n));
  if (lost !== undefined) throw new LeaseLost(lost);
}

export function parseProgressNotice(payload: string): ProgressNotice | undefined {
  try {
    const n = JSON.parse(payload) as Partial<ProgressNotice>;
    if (typeof n.p !== 'string' || !Array.isArray(n.n) || !Array.isArray(n.a)) return undefined;
    return n as ProgressNotice;
  } catch {
    return undefined;
  }
}

/**
 * Sets a checkpoint, wherever it was (tools and tests feeding a consumer batches by hand; a running
 * consumer moves its own with `advanceCheckpoint`).
 */
export async function writeCheckpoint(tx: Queryable, name: string, position: Position): Promise<void> {
  await exec(
    tx,
    sql.fragment`insert into subscription_checkpoints (name, position, updated_at)
           values (${name}, ${position}, now())
           on conflict (name) do update set position = excluded.position, updated_at = now()`,
  );
}

/**
 * Makes `name` follow `group`'s checkpoint from now on (inside the caller's transaction, which holds the
 * group's row so that it cannot move meanwhile): only if `name` is still at `from` (the fence).
 */
export async function followCheckpoint(
  tx: Queryable,
  name: string,
  from: Position,
  group: string,
): Promise<void> {
  const { rowCount } = await tx.query(
    `update subscription_checkpoints set position = $2, updated_at = now()
      where name = $1 and position = $3`,
    [name, followsGroup(group), from],
  );
  if (rowCount === 0) throw new LeaseLost(name);
}

/** The consumers following `group` now (read inside the group's batch, after its checkpoint moved). */
export async function followersOf(tx: Queryable, group: string): Promise<Set<string>> {
  const { rows } = await tx.query<{ name: string }>({
    name: 'mrn_followers_of',
    text: 'select name from subscription_checkpoints where position = $1',
    values: [followsGroup(group)],
  });
  return new Set(rows.map((r) => r.name));
}

/**
 * Gives `name` a checkpoint of its own again at `position` (it leaves its group, or starts over), marked
 * as building or not.
 */
export async function detachCheckpoint(
  tx: Queryable,
  name: string,
  position: Position,
  building: boolean,
): Promise<void> {
  await tx.query(
    `insert into subscription_checkpoints (name, position, building, updated_at) values ($1, $2, $3, now())
     on conflict (name) do update set position = excluded.position, building = excluded.building, updated_at = now()`,
    [name, position, building],
  );
}

/** A checkpoint row as it stands: its own position or `@<group>`, whether building, and its version. */
export interface CheckpointRow {
  name: string;
  position: string;
  building: boolean;
  version: number;
}

/**
 * The checkpoint rows of `names`, and of every consumer whose name begins with `prefix` (a runner's
 * groups), as stored (a follower's position reads `@<group>`).
 */
export async function checkpointRows(
  tx: Queryable,
  names: readonly string[],
  prefix: string,
): Promise<CheckpointRow[]> {
  const { rows } = await tx.query<CheckpointRow>(
    `select name, position, building, version from subscription_checkpoints
      where name = any($1::text[]) or starts_with(name, $2)`,
    [names, prefix],
  );
  return rows;
}

/**
 * Holds the named checkpoints' rows until the caller's transaction ends (the first named first: one
 * order for everyone), and answers them as stored.
 */
export async function holdCheckpoints(tx: Queryable, names: readonly string[]): Promise<Map<string, string>> {
  const { rows } = await tx.query<{ name: string; position: string }>(
    `select name, position from subscription_checkpoints where name = any($1::text[])
      order by array_position($1::text[], name) for update`,
    [names],
  );
  return new Map(rows.map((r) => [r.name, r.position]));
}

/** The consumer's output is complete (`building` false) or not, and made by code of `version`. */
export async function markCheckpoint(
  tx: Queryable,
  name: string,
  mark: { building?: boolean; version?: number },
): Promise<void> {
  await tx.query(
    `update subscription_checkpoints set building = coalesce($2, building), version = coalesce($3, version)
      where name = $1`,
    [name, mark.building ?? null, mark.version ?? null],
  );
}

/** Forgets a checkpoint (a group that has no member any more). */
export async function dropCheckpoint(tx: Queryable, name: string): Promise<void> {
  await tx.query('delete from subscription_checkpoints where name = $1', [name]);
}

/** Sets the checkpoint at the log's start unless the consumer has one. */
export async function ensureCheckpoint(tx: Queryable, name: string): Promise<void> {
  await tx.query(
    `insert into subscription_checkpoints (name, position, updated_at) values ($1, $2, now())
     on conflict (name) do nothing`,
    [name, START],
  );
}
