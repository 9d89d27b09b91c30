import { CONSISTENT_AFTER_HEADER, type RouteSpec } from '@mrn/contracts';
import {
  DomainError,
  invalid,
  isPosition,
  type ReadModelProgress,
  type RegisterOptions,
} from '@mrn/platform';

/** What a read of a read model being built answers (503), and when to ask again. */
export const BUILDING_TEXT =
  'This page is being prepared after an upgrade of the service and will be available in a few minutes. Please try again shortly.';
const BUILDING_RETRY_SECONDS = 30;

/**
 * X-Consistent-After (DESIGN §1, read-your-writes): before a query answers, wait until the projectors
 * its answer is made of have passed the client's last write, and no others, so a projector that is behind
 * or halted slows only the answers that read it. The session check reads users and accounts: they too
 * must be as of the position. Runs after the token is verified, so an anonymous or forged request is
 * refused without waiting.
 */
export function consistencyWait(
  consistency: ReadModelProgress,
  timeoutMs: number,
): NonNullable<RegisterOptions['beforeHandler']> {
  return async (route: RouteSpec, request, reply) => {
    // A read model still being built (new in this version, or built again) is not served half done.
    const reads = route.readModels ?? [];
    if (reads.length > 0 && consistency.building && (await consistency.building(reads)).length > 0) {
      throw new DomainError('unavailable', BUILDING_TEXT, { retryAfterSeconds: BUILDING_RETRY_SECONDS });
    }
    const token = request.headers[CONSISTENT_AFTER_HEADER];
    if (typeof token !== 'string' || token === '') return;
    if (!isPosition(token)) throw invalid(`${CONSISTENT_AFTER_HEADER}: is not a position`);
    const readModels = [...new Set([...(route.readModels ?? []), 'users', 'accounts'])];
    // Answering late data is better than no answer; the header tells the client it may be behind.
    if (!(await consistency.waitFor(token, readModels, timeoutMs))) reply.header('x-consistency', 'timeout');
  };
}
