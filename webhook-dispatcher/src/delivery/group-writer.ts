/**
 * Writes items in groups: whatever arrived while the previous group was being written goes in the next
 * one, one statement and one commit for all (≥ 1,000 deliveries/s, and a storm of failures from hanging
 * endpoints costs a few transactions, not one each). Nothing waits for a group to fill.
 */
export class GroupWriter<T> {
  private queue: { item: T; resolve(): void; reject(e: unknown): void }[] = [];
  private writing = false;

  constructor(
    private readonly write: (group: T[]) => Promise<void>,
    private readonly maxGroup = 1000,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, this.maxGroup);
        try {
          await this.write(group.map((g) => g.item));
          for (const g of group) g.resolve();
        } catch (err) {
          for (const g of group) g.reject(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
