import { Button, Callout, Card, Checkbox, Classes, H4, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { MESSAGES } from '@mrn/contracts/domain/messages';
import { MIN_CONTRIBUTION_PERCENT } from '@mrn/contracts/domain/plans';
import type { AccountView } from '@mrn/contracts/routes/accounts';
import { routes } from '@mrn/contracts/routes/index';
import { useQueryClient } from '@tanstack/react-query';
import { useApiMutation } from '../api/hooks.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { contributionIntent, formatContribution } from '../layout/contribution.ts';
import { formatDate } from '../merchants/format.ts';
import { showError, showSuccess } from '../ui/toaster.ts';
import { invalidateAccountData } from './queries.ts';

const WINDOWS = [
  ['Last 90 days', 'total_ninety_days_contribution_percentage'],
  ['Last 30 days', 'total_month_contribution_percentage'],
  ['Last 2 weeks', 'total_two_week_contribution_percentage'],
  ['Last week', 'total_week_contribution_percentage'],
] as const satisfies readonly (readonly [string, keyof AccountView])[];

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The Contribution tab (accounts spec §2): the four figures, the warning bar, Recalculate and, for
 * platform admins, the override; beyond the old product, what the 90-day figure is made of and how
 * many more records keep the funder above the minimum.
 */
export function ContributionPanel({ account }: { account: AccountView }) {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const onError = (error: { status: number; message: string }) => {
    if (error.status !== 401) showError(error.message);
  };
  const recalculate = useApiMutation(routes.recalculateContribution, {
    onSuccess: () => {
      showSuccess('Contribution percentage has been recalculated.');
      void invalidateAccountData(queryClient);
    },
    onError,
  });
  const toggleOverride = useApiMutation(routes.toggleContributionOverride, {
    onSuccess: () => {
      showSuccess(
        account.contribution_override
          ? 'The contribution requirement applies again.'
          : 'The contribution requirement is overridden.',
      );
      void invalidateAccountData(queryClient);
    },
    onError,
  });
  const params = { params: { id: account.resource_id } };

  return (
    <Card elevation={1} className="mrn-contribution-panel">
      <H4>Contribution</H4>
      <ContributionStanding account={account} />
      <HTMLTable compact className="mrn-contribution-windows" aria-label="Contribution percentages">
        <tbody>
          {WINDOWS.map(([label, field]) => (
            <tr key={field}>
              <th scope="row">{label}</th>
              <td>
                <Tag size="large" minimal intent={contributionIntent(account[field])}>
                  {formatContribution(account[field])}
                </Tag>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <p>
        Over the last 90 days{' '}
        {count(account.contribution_records_added, 'merchant or note', 'merchants and notes')} added for{' '}
        {count(account.contribution_merchants_searched, 'distinct merchant', 'distinct merchants')} searched.{' '}
        {account.contribution_merchants_searched === 0
          ? 'With no search in the window the figure is 100%.'
          : account.contribution_records_needed > 0
            ? `${count(account.contribution_records_needed, 'more merchant or note', 'more merchants or notes')} would bring it to the ${MIN_CONTRIBUTION_PERCENT}% minimum.`
            : `That is at or above the ${MIN_CONTRIBUTION_PERCENT}% minimum.`}
      </p>
      <p className={Classes.TEXT_MUTED}>
        {MESSAGES.contributionTooltip}. Contribution = merchants and notes added ÷ distinct merchants searched
        (an EIN search, or a name search that found one merchant), recalculated as records are added and every
        day at 00:00 UTC.
      </p>
      <div className="mrn-contribution-actions">
        <Button
          icon="refresh"
          text="Recalculate Contribution Percentage"
          loading={recalculate.isPending}
          onClick={() => recalculate.mutate(params)}
        />
        {user.is_dm_admin && (
          <Checkbox
            label="Contribution Requirement Override"
            checked={account.contribution_override}
            disabled={toggleOverride.isPending}
            onChange={() => toggleOverride.mutate(params)}
          />
        )}
      </div>
    </Card>
  );
}

/** The warning bar: warned (with its dates), locked, or overridden. */
function ContributionStanding({ account }: { account: AccountView }) {
  if (account.contribution_override) {
    return (
      <Callout intent={Intent.PRIMARY} icon="info-sign" className="mrn-callout-gap">
        The contribution requirement is overridden by a platform administrator: this funder can search
        whatever its contribution.
      </Callout>
    );
  }
  if (account.contribution_locked) {
    return (
      <Callout
        intent={Intent.DANGER}
        icon="lock"
        title="Locked from search"
        className="mrn-callout-gap"
        role="alert"
      >
        The 90-day contribution is below {MIN_CONTRIBUTION_PERCENT}% and the warning issued{' '}
        {formatDate(account.contribution_warning_date)} expired on{' '}
        {formatDate(account.contribution_warning_expire_date)}. Searching opens again as soon as added
        merchants and notes bring it back to {MIN_CONTRIBUTION_PERCENT}%.
      </Callout>
    );
  }
  if (account.contribution_warning_date) {
    return (
      <Callout
        intent={Intent.WARNING}
        icon="warning-sign"
        title="Contribution warning"
        className="mrn-callout-gap"
        role="status"
      >
        Issued {formatDate(account.contribution_warning_date)}, expires{' '}
        {formatDate(account.contribution_warning_expire_date)}. The 90-day contribution is below{' '}
        {MIN_CONTRIBUTION_PERCENT}%: if it is still below when the warning expires, searching is locked.
      </Callout>
    );
  }
  return null;
}
