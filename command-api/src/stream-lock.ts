/**
 * One command at a time per stream inside this process. Fifty members adding notes to one merchant
 * at once all read the same revision; without a queue all but one lost the append and most ran out
 * of retries. Queued, each decides on the state its predecessor left. Other processes still race,
 * and the optimistic append with jittered retries (command-handler.ts) settles that.
 */
export class StreamLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      // The last in the queue removes the key, so the map holds only streams with work in flight.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Streams with commands queued or running (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
