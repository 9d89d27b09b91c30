import type { PartnerApiMount } from '@mrn/platform';
import { runContributionReactor } from './accounts/contribution-reactor.ts';
import { startApiTokenBackfill } from './auth/api-token-backfill.ts';
import { settleBackground } from './background.ts';
import type { CommandDeps } from './context.ts';
import { runContributionClock } from './contribution-clock.ts';
import { runSearchWatchReactor } from './merchant-subscriptions/search-watch-reactor.ts';
import { registerCommandApi } from './plugin.ts';

/**
 * The command service on an HTTP shell: every command route, the Stripe webhook and direct uploads,
 * and its consumers (the e-mail outbox, the search-watch reactor, the contribution clock and reactor). The same in
 * the all-in-one process and in a command-api process of its own; its consumers are safe to run in
 * every command-api process at once (each writes what is new only, by key or by expected revision).
 */
export function startCommandService(deps: CommandDeps): {
  /** The partner API's commands, to mount in the /api/v2 plugin (`registerPartnerApi`). */
  partnerApi: PartnerApiMount;
  /** The contribution reactor (a test stops it to hold a lock in place while records arrive). */
  contributionReactor: { stop(): Promise<void> };
  stop(): Promise<void>;
} {
  const partnerApi = registerCommandApi(deps);
  // Reserves, once, API tokens granted before tokens were reserved; in the background, as the token
  // check waits for it when a token is not reserved yet.
  const apiTokenBackfill = startApiTokenBackfill(deps);
  const contributionClock = runContributionClock(deps);
  // A funder under a warning or lock assessed again once its new records are counted.
  const contributionReactor = runContributionReactor({
    ...deps,
    logger: deps.logger.child({ component: 'contribution-reactor' }),
  });
  // "Watch merchants we search": subscribes accounts to what they search, following projections' feed.
  const searchWatch = runSearchWatchReactor({
    ...deps,
    logger: deps.logger.child({ component: 'search-watch' }),
  });
  return {
    partnerApi,
    contributionReactor,
    async stop() {
      contributionClock.stop();
      await apiTokenBackfill.stop();
      await settleBackground();
      await searchWatch.stop();
      await contributionReactor.stop();
    },
  };
}
