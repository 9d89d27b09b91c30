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

/** Every projector the product runs; `npm run rebuild -- <name|all>` picks from these. */
export const allProjectors: readonly Projector[] = [
  accountsProjector,
  usersProjector,
  appSettingsProjector,
  merchantsProjector,
  notesProjector,
  merchantSearchesProjector,
  merchantInquiriesProjector,
  merchantLinksProjector,
  merchantSignalsProjector,
  brokerNotesProjector,
  disputesProjector,
  contributionProjector,
  merchantSubscriptionsProjector,
  analyticsProjector,
  adminWidgetsProjector,
  // The search log's readers (issue 31): one group, one transaction per batch of searches.
  contributionSearchesProjector,
  analyticsSearchesProjector,
  searchFeedsProjector,
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
