import type { z } from '../zod.ts';
import { type EventData, type EventType, eventSchemas } from './index.ts';

/**
 * Upcasters by event type: `[type][v]` turns data written at schema version `v` into version `v + 1`.
 * An event records its schema version in `metadata.schemaVersion` (absent = 1). None exist yet: when an
 * event's shape changes, bump `CURRENT_SCHEMA_VERSIONS[type]` and add the step here, and old events are
 * read as new ones everywhere (projections and deciders), without rewriting the log.
 */
export type Upcaster = (data: unknown) => unknown;
export type UpcasterRegistry = Partial<Record<EventType, Record<number, Upcaster>>>;

export const upcasters: UpcasterRegistry = {};
export const CURRENT_SCHEMA_VERSIONS: Partial<Record<EventType, number>> = {};

/** An event the catalogue cannot read: unknown type, no upcaster for its version, or data of the wrong shape. */
export class EventParseError extends Error {
  constructor(
    readonly eventType: string,
    readonly problem: string,
  ) {
    super(`Event ${eventType} cannot be read: ${problem}`);
    this.name = 'EventParseError';
  }
}

const isEventType = (type: string): type is EventType => Object.hasOwn(eventSchemas, type);

/** The data of a recorded event as the catalogue's current version of its type. */
export function parseEventData<T extends EventType>(
  type: T,
  data: unknown,
  schemaVersion?: number,
  registry?: { upcasters: UpcasterRegistry; versions: Partial<Record<EventType, number>> },
): z.infer<(typeof eventSchemas)[T]>;
export function parseEventData(
  type: string,
  data: unknown,
  schemaVersion = 1,
  registry = { upcasters, versions: CURRENT_SCHEMA_VERSIONS },
): unknown {
  if (!isEventType(type)) throw new EventParseError(type, 'unknown event type');
  const current = registry.versions[type] ?? 1;
  let value = data;
  for (let v = schemaVersion; v < current; v++) {
    const step = registry.upcasters[type]?.[v];
    if (!step) throw new EventParseError(type, `no upcaster from version ${v}`);
    value = step(value);
  }
  const parsed = (eventSchemas[type] as z.ZodType).safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'data'}: ${i.message}`);
    throw new EventParseError(type, problems.join('; '));
  }
  return parsed.data;
}

/** A recorded event with its data read through the catalogue (`metadata.schemaVersion` picks the upcasters). */
export function parseEvent<E extends { type: string; data: unknown; metadata?: unknown }>(event: E): E {
  const version = (event.metadata as { schemaVersion?: unknown } | undefined)?.schemaVersion;
  const data = parseEventData(event.type as EventType, event.data, typeof version === 'number' ? version : 1);
  return { ...event, data };
}

/**
 * A recorded event of the catalogue, its `type` the discriminant of its `data`: a `switch (e.type)` over
 * it narrows `e.data` with no cast. What `E` carries besides (stream, position, time) stays as it is.
 */
export type Typed<E extends { type: string; data: unknown }> = {
  [T in EventType]: Omit<E, 'type' | 'data'> & { type: T; data: EventData<T> };
}[EventType];

/**
 * `parseEvent`, typed as the catalogue's union: the one place the type is asserted, right where the
 * data has been read through the event's own schema.
 */
export function parseTypedEvent<E extends { type: string; data: unknown; metadata?: unknown }>(
  event: E,
): Typed<E> {
  return parseEvent(event) as unknown as Typed<E>;
}
