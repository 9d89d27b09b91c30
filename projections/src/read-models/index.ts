import type { Projector } from '../projector.ts';
import { accountsProjector } from './accounts.ts';
import { adminWidgetsProjector } from './admin-widgets.ts';
import { analyticsProjector, analyticsSearchesProjector } from './analytics.ts';
import { appSettingsProjector } from './app-settings.ts';
import { brokerNotesProjector } from './broker-notes.ts';
import { contributionProjector, contributionSearchesProjector } from './contribution.ts';
import { disputesProjector } from './disputes.ts';
import { merchantInquiriesProjector } from './merchant-inquiries.ts';
import { merchantLinksProjector } from './merchant-links.ts';
import { merchantSearchesProjector } from './merchant-searches.ts';
import { merchantSignalsProjector } from './merchant-signals.ts';
import { merchantSubscriptionsProjector } from './merchant-subscriptions.ts';
import { merchantsProjector } from './merchants.ts';
import { notesProjector } from './notes.ts';
import { searchFeedsProjector } from './search-feeds.ts';
import { usersProjector } from './users.ts';

/**
 * Every projector the product runs; `npm run rebuild -- <name|all>` picks from these. A live batch applies
 * its log's projectors in this order, in one transaction: the two contribution projectors come last of
 * their log's, because each takes the lock both logs' batches share (`lockContribution`) and holds it
 * until its batch commits. In the order the checkpoint table happened to list them, the event log's batch
 * could hold it through most of its statements while the search log's batch waited, and the other way
 * round (lag phase of the search bench: 6.7 s spent waiting for it in 10 s).
 */
export const allProjectors: readonly Projector[] = [
  // The event log's readers.
  accountsProjector,
  usersProjector,
  appSettingsProjector,
  merchantsProjector,
  notesProjector,
  merchantLinksProjector,
  merchantSignalsProjector,
  brokerNotesProjector,
  disputesProjector,
  merchantSubscriptionsProjector,
  analyticsProjector,
  adminWidgetsProjector,
  contributionProjector,
  // The search log's readers (issue 31): one group, one transaction per batch of searches.
  merchantSearchesProjector,
  merchantInquiriesProjector,
  analyticsSearchesProjector,
  searchFeedsProjector,
  contributionSearchesProjector,
];

export {
  accountsProjector,
  adminWidgetsProjector,
  analyticsProjector,
  analyticsSearchesProjector,
  appSettingsProjector,
  brokerNotesProjector,
  contributionProjector,
  contributionSearchesProjector,
  disputesProjector,
  merchantInquiriesProjector,
  merchantLinksProjector,
  merchantSearchesProjector,
  merchantSignalsProjector,
  merchantSubscriptionsProjector,
  merchantsProjector,
  notesProjector,
  searchFeedsProjector,
  usersProjector,
};
