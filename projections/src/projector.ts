import { createHash } from 'node:crypto';
import type { DomainEvent, EventType } from '@mrn/contracts';
import type { PoolClient, RecordedEvent } from '@mrn/platform';

export type ProjectedEvent<T extends EventType = EventType> = RecordedEvent<
  T,
  Extract<DomainEvent, { type: T }>['data']
>;

/** How a batch is being applied. */
export interface ApplyContext {
  /**
   * A replay from the log's start into emptied tables (`rebuildProjectors`): the projector's `derived`
   * tables are left alone, and built once from its other tables when the replay ends.
   */
  replaying: boolean;
}

/** The runner's batches, and a catch-up's. */
export const LIVE: ApplyContext = { replaying: false };
export const REPLAYING: ApplyContext = { replaying: true };

type Handlers = {
  [T in EventType]?: (tx: PoolClient, event: ProjectedEvent<T>, ctx: ApplyContext) => Promise<void>;
};
type BulkHandlers = {
  [T in EventType]?: (
    tx: PoolClient,
    events: ProjectedEvent<T>[],
    /** The whole batch, every type, in log order: to fold later events of a record into its insert. */
    batch: readonly ProjectedEvent[],
    ctx: ApplyContext,
  ) => Promise<void>;
};

/** The logs a projector may read: the event log, or the search log (issue 31). */
export type LogName = 'events' | 'searches';

export interface Projector {
  /** Also the checkpoint name. */
  name: string;
  /** The log it reads (default: the event log). */
  log?: LogName;
  /**
   * Bumped when what its rows mean changes (a new key, a new column filled from the log): a runner
   * meeting a projector whose checkpoint was written by another version empties its tables and builds
   * them again from the log, beside the live read models, serving it only once complete. Default 1.
   */
  version?: number;
  /** Tables this projector alone writes; emptied on rebuild. */
  tables: readonly string[];
  /** One event at a time, in log order. */
  handlers?: Handlers;
  /**
   * Set-based handling: after the one-at-a-time handlers have run over the batch, the batch is
   * applied as one statement per event type, the types taken in this order, each type's events in
   * log order. Only for events whose effects commute per record in that order (the domain
   * guarantees, e.g., no note after an archive); replay-equality tests hold projectors to it.
   */
  bulk?: { order: readonly EventType[]; handlers: BulkHandlers };
  /**
   * After the handlers, once per batch that held an event the projector handles: for figures derived
   * from the whole batch (computed once, as of the batch's events, not once per event type).
   */
  afterBatch?: (tx: PoolClient, batch: readonly ProjectedEvent[], ctx: ApplyContext) => Promise<void>;
  /**
   * Tables that follow from the projector's other tables alone (an index kept as rows, e.g. a name's
   * words): a replay does not keep them row by row but fills them once the log has been read, each of
   * `builds` a set-based statement in a transaction of its own, side by side, rows in the order their
   * indexes want, before the deferred indexes are built. They are among `tables`; live, the handlers
   * keep them in step.
   */
  derived?: {
    tables: readonly string[];
    builds: readonly ((tx: PoolClient) => Promise<void>)[];
  };
  /**
   * Indexes of its tables that no statement of the replay needs (schema-qualified names): a rebuild
   * drops them first and builds them once at the end.
   */
  deferredIndexes?: readonly string[];
}

export const projector = (definition: Projector): Projector => definition;

export const logOf = (p: Projector): LogName => p.log ?? 'events';
export const versionOf = (p: Projector): number => p.version ?? 1;

/** The event types the projector does something with. */
export const handledTypes = (p: Projector): string[] => [
  ...Object.keys(p.handlers ?? {}),
  ...Object.keys(p.bulk?.handlers ?? {}),
];

export const handles = (p: Projector, type: string): boolean =>
  (p.handlers !== undefined && type in p.handlers) || (p.bulk !== undefined && type in p.bulk.handlers);

/**
 * The projectors' statements are the same few texts run over and over (a batch of searches or
 * commands several times a second): each is sent as a named statement, so PostgreSQL plans it once per
 * connection, not on every batch (a projector's CTE over `json_to_recordset` planned in up to a
 * millisecond, more than it took to run on a small batch). Texts are constants of the read models;
 * the bound keeps a mistaken dynamic text from preparing statements without end.
 *
 * A batch's rows go as one JSON text read by `json_to_recordset($1::json)`: `json`, not `jsonb`, since
 * the text is read once, and building the binary form first cost a note's row 7.2 µs of PostgreSQL's
 * CPU against 5.2 µs (50,000 NoteAdded rows, issue 31).
 */
const MAX_NAMED_STATEMENTS = 500;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `mrn_projection_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** `tx` whose `query(text, values)` calls go out as named statements (see `statementName`). */
function preparing(tx: PoolClient): PoolClient {
  const query = (config: unknown, values?: unknown[]) => {
    if (typeof config === 'string') {
      const name = statementName(config);
      if (name) return tx.query({ name, text: config, values: values ?? [] });
    }
    return (tx.query as (c: unknown, v?: unknown[]) => Promise<unknown>)(config, values);
  };
  return new Proxy(tx, {
    get: (target, prop, receiver) => (prop === 'query' ? query : Reflect.get(target, prop, receiver)),
  });
}

/** Applies a batch inside the batch transaction (events the projector does not handle are skipped). */
export async function applyEvents(
  p: Projector,
  client: PoolClient,
  events: RecordedEvent[],
  ctx: ApplyContext = LIVE,
): Promise<void> {
  const tx = preparing(client);
  if (p.handlers) {
    for (const event of events) {
      const handler = p.handlers[event.type as EventType] as
        | ((tx: PoolClient, e: RecordedEvent, ctx: ApplyContext) => Promise<void>)
        | undefined;
      if (handler) await handler(tx, event, ctx);
    }
  }
  if (p.bulk) {
    for (const type of p.bulk.order) {
      const ofType = events.filter((e) => e.type === type);
      const handler = p.bulk.handlers[type] as
        | ((tx: PoolClient, e: RecordedEvent[], batch: RecordedEvent[], ctx: ApplyContext) => Promise<void>)
        | undefined;
      if (ofType.length > 0 && handler) await handler(tx, ofType, events, ctx);
    }
  }
  if (p.afterBatch && events.some((e) => handles(p, e.type))) {
    await p.afterBatch(tx, events as ProjectedEvent[], ctx);
  }
}

/** The last event per key, in log order: for "latest wins" columns. */
export function lastBy<E>(events: E[], key: (e: E) => string): E[] {
  const last = new Map<string, E>();
  for (const e of events) {
    const k = key(e);
    last.delete(k);
    last.set(k, e);
  }
  return [...last.values()];
}
