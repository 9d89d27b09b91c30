import { Callout, Card, Classes, H4, Tag } from '@blueprintjs/core';
import { MESSAGES } from '@mrn/contracts/domain/messages';
import type { AccountView } from '@mrn/contracts/routes/accounts';
import { contributionIntent, formatContribution } from '../layout/contribution.ts';

/** Contribution tab: the 90-day figure known today; the windows, warnings and override come later. */
export function ContributionPanel({ account }: { account: AccountView }) {
  const percent = account.total_ninety_days_contribution_percentage;
  return (
    <Card elevation={1}>
      <H4>Contribution</H4>
      <p className="mrn-contribution-figure">
        <span className={Classes.TEXT_MUTED}>Last 90 days</span>{' '}
        <Tag size="large" minimal intent={contributionIntent(percent)}>
          {formatContribution(percent)}
        </Tag>
      </p>
      <p className={Classes.TEXT_MUTED}>
        {MESSAGES.contributionTooltip}. {account.merchants_added.toLocaleString('en-US')} merchants and{' '}
        {account.notes_added.toLocaleString('en-US')} notes added in total.
      </p>
      <Callout icon="time" title="Coming soon">
        The 30-day, 2-week and weekly figures, contribution warnings with their dates, Recalculate
        Contribution Percentage and the Contribution Requirement Override arrive with the next release.
      </Callout>
    </Card>
  );
}
