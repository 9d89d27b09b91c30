/**
 * Read-your-writes (DESIGN §1): every command answer carries the log `position` of its last event;
 * later queries send the latest one so the query API waits until its read models have caught up.
 */
let latestPosition: string | null = null;

export function rememberPosition(position: string): void {
  latestPosition = position;
}

export function consistentAfter(): string | null {
  return latestPosition;
}
