import type { DomainEvent, EventType } from '@mrn/contracts';
import type { PoolClient, RecordedEvent } from '@mrn/platform';

export type ProjectedEvent<T extends EventType = EventType> = RecordedEvent<
  T,
  Extract<DomainEvent, { type: T }>['data']
>;

type Handlers = { [T in EventType]?: (tx: PoolClient, event: ProjectedEvent<T>) => Promise<void> };

export interface Projector {
  /** Also the checkpoint name. */
  name: string;
  /** Tables this projector alone writes; emptied on rebuild. */
  tables: readonly string[];
  handlers: Handlers;
}

export const projector = (definition: Projector): Projector => definition;

export const handles = (p: Projector, type: string): boolean => type in p.handlers;

/** Applies one event inside the batch transaction (events the projector does not handle are skipped). */
export async function applyEvent(p: Projector, tx: PoolClient, event: RecordedEvent): Promise<void> {
  const handler = p.handlers[event.type as EventType] as
    | ((tx: PoolClient, e: RecordedEvent) => Promise<void>)
    | undefined;
  if (handler) await handler(tx, event);
}
