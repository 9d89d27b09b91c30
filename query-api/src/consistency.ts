import { CONSISTENT_AFTER_HEADER, type RouteSpec } from '@mrn/contracts';
import { invalid, isPosition, type RegisterOptions } from '@mrn/platform';
import type { Consistency } from './context.ts';

/**
 * X-Consistent-After (DESIGN §1, read-your-writes): before a query answers, wait until the projectors
 * its answer is made of have passed the client's last write, and no others, so a projector that is behind
 * or halted slows only the answers that read it. The session check reads users and accounts: they too
 * must be as of the position. Runs after the token is verified, so an anonymous or forged request is
 * refused without waiting.
 */
export function consistencyWait(
  consistency: Consistency,
  timeoutMs: number,
): NonNullable<RegisterOptions['beforeHandler']> {
  return async (route: RouteSpec, request, reply) => {
    const token = request.headers[CONSISTENT_AFTER_HEADER];
    if (typeof token !== 'string' || token === '') return;
    if (!isPosition(token)) throw invalid(`${CONSISTENT_AFTER_HEADER}: is not a position`);
    const readModels = [...new Set([...(route.readModels ?? []), 'users', 'accounts'])];
    // Answering late data is better than no answer; the header tells the client it may be behind.
    if (!(await consistency.waitFor(token, readModels, timeoutMs))) reply.header('x-consistency', 'timeout');
  };
}
