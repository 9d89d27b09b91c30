import type { EventStore, Probe } from '@mrn/platform';
import type { ProjectionRunner } from './runner.ts';

const minutesAgo = (since: Date) => {
  const minutes = Math.max(0, Math.round((Date.now() - since.getTime()) / 60_000));
  return minutes === 0 ? 'less than a minute ago' : minutes === 1 ? 'a minute ago' : `${minutes} minutes ago`;
};

/**
 * Whether the read models are being kept: projections running and none halted at an event it could not
 * apply. Anyone reads what is wrong in words (which read model, since when); operators get the event,
 * the error and every projector's position on the operations listener. A standby process (it holds no
 * lease) is healthy: it is there to take over.
 */
export function projectionsProbe(runner: ProjectionRunner, store: EventStore): Probe {
  return {
    name: 'projections',
    failure: 'The read models are not being kept up to date.',
    async check() {
      if (!runner.isRunning)
        return { ok: false, status: 'starting', problem: 'The read models are starting.' };
      // The log's head is a detail: a database that does not answer is the database probe's to say.
      const head = await store.headPosition().catch(() => null);
      const halted = runner.quarantined;
      const haltedNames = new Set(halted.map((q) => q.projector));
      const projectors = [...runner.positions].map(([name, appliedThrough]) => ({
        name,
        state: haltedNames.has(name)
          ? 'halted'
          : head === null
            ? 'unknown'
            : appliedThrough >= head
              ? 'live'
              : 'catching_up',
        applied_through: appliedThrough,
      }));
      const detail = { head, applying: runner.applying, projectors };
      if (halted.length === 0) return { ok: true, ...detail };
      return {
        ok: false,
        status: 'degraded',
        problem: halted
          .map(
            (q) =>
              `The ${q.projector.replace(/_/g, ' ')} read model stopped ${minutesAgo(q.since)} at a change it could not apply; the other read models are current.`,
          )
          .join(' '),
        ...detail,
        halted: halted.map((q) => ({
          name: q.projector,
          event: { id: q.eventId, type: q.type, stream_id: q.streamId, position: q.position },
          error: q.error,
          since: q.since.toISOString(),
          lag: {
            applied_through: q.appliedThrough,
            head,
            seconds: Math.max(0, Math.round((Date.now() - q.recordedAt.getTime()) / 1000)),
          },
        })),
      };
    },
  };
}
