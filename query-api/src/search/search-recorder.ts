import { type EventData, streams } from '@mrn/contracts';
import { type AppendResult, type EventStore, newId, type StreamAppend } from '@mrn/platform';

interface Pending {
  data: EventData<'MerchantSearched'>;
  resolve: (r: AppendResult) => void;
  reject: (e: unknown) => void;
}

/**
 * Records every search as a MerchantSearched fact (DESIGN §4) without making each search pay its
 * own commit: searches that arrive while a write is in flight go together in the next one, as one
 * multi-stream append. The store it is given commits asynchronously (see server/src/app.ts): a crash
 * may lose the last fraction of a second of searches, never a merchant or a note.
 */
export class SearchRecorder {
  private queue: Pending[] = [];
  private running: Promise<void> | null = null;
  private last: string | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly maxBatch = 500,
  ) {}

  record(data: EventData<'MerchantSearched'>): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ data, resolve, reject });
      this.running ??= this.drain().finally(() => {
        this.running = null;
      });
    });
  }

  /** Resolves once everything recorded so far is written. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Where the newest search this recorder wrote stands in the log: what to wait for to read every search
   * it recorded (the store's head can leave a commit out while an older transaction is still open).
   */
  get lastRecorded(): string | undefined {
    return this.last;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      const byStream = new Map<string, Pending[]>();
      for (const p of batch) {
        const id = streams.searches(p.data.accountId);
        byStream.set(id, [...(byStream.get(id) ?? []), p]);
      }
      const appends: StreamAppend[] = [...byStream].map(([streamId, items]) => ({
        streamId,
        expectedRevision: 'any',
        events: items.map((p) => ({
          id: newId(),
          type: 'MerchantSearched',
          data: p.data,
          metadata: { actorUserId: p.data.userId, actorAccountId: p.data.accountId, source: p.data.source },
        })),
      }));
      try {
        const results = await this.store.appendMany(appends);
        for (const r of results)
          if (this.last === undefined || r.position > this.last) this.last = r.position;
        appends.forEach((a, i) => {
          for (const p of byStream.get(a.streamId)!) p.resolve(results[i]!);
        });
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
  }
}
