import type { EventData } from '@mrn/contracts';
import type { Position, SearchLogWriter } from '@mrn/platform';

interface Pending {
  data: EventData<'MerchantSearched'>;
  resolve: (r: { position: Position }) => void;
  reject: (e: unknown) => void;
}

/**
 * Records every search as a fact of the search log (DESIGN §4, issue 31) without making each search pay
 * its own statement: searches that arrive while a write is in flight go together in the next one. The
 * log commits asynchronously: a crash may lose the last fraction of a second of searches, never a
 * merchant or a note.
 */
export class SearchRecorder {
  private queue: Pending[] = [];
  private running: Promise<void> | null = null;
  private last: Position | undefined;

  constructor(
    private readonly log: SearchLogWriter,
    private readonly maxBatch = 500,
  ) {}

  /** Resolves with the search's position in the log once it is written. */
  record(data: EventData<'MerchantSearched'>): Promise<{ position: Position }> {
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

  /** Where the newest search this recorder wrote stands in the log: what to wait for to read them all. */
  get lastRecorded(): Position | undefined {
    return this.last;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const positions = await this.log.append(batch.map((p) => p.data));
        positions.forEach((position, i) => {
          if (this.last === undefined || position > this.last) this.last = position;
          batch[i]!.resolve({ position });
        });
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
  }
}
