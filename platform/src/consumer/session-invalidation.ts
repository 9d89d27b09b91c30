import { sessionCache } from '../http/authenticate.ts';
import { PROGRESS_CHANNEL, parseProgressNotice } from './checkpoints.ts';
import type { PgNotifications } from './notifications.ts';

/** Told by the process that ended sessions (logout, revocation, an archived funder). */
export const SESSIONS_CHANNEL = 'mrn_sessions';

/** The read models the session check reads (platform/src/http/authenticate.ts). */
const SESSION_READ_MODELS = new Set(['users', 'accounts']);

/**
 * Keeps this process's session cache from outliving a change made by another: a revoked session or
 * API token, or a change the users and accounts projectors applied (a role, an archive), clears it
 * the moment the notice arrives. The cache's one-second life bounds what a lost notice could cost.
 */
export async function followSessionChanges(notifications: PgNotifications): Promise<void> {
  await notifications.on(SESSIONS_CHANNEL, () => sessionCache.clear());
  await notifications.on(PROGRESS_CHANNEL, (payload) => {
    const notice = parseProgressNotice(payload);
    if (notice?.a.some((name) => SESSION_READ_MODELS.has(name))) sessionCache.clear();
  });
  notifications.onReconnect(() => sessionCache.clear());
}
