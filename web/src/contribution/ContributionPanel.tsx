import {
  Button,
  Callout,
  Card,
  Checkbox,
  Classes,
  H4,
  HTMLTable,
  Intent,
  Tag,
  Tooltip,
} from '@blueprintjs/core';
import {
  CONTRIBUTION_REMINDER_DAYS,
  CONTRIBUTION_TEXTS,
  CONTRIBUTION_WARNING_DAYS,
  type ContributionView,
  contributionMadeOf,
  MIN_CONTRIBUTION_PERCENT,
  moreRecords,
  overHundredExplained,
  routes,
} from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useApiMutation } from '../api/hooks.ts';
import { invalidateAccountData } from '../api/invalidate.ts';
import { useSignedInUser } from '../auth/auth-context.ts';
import { formatDate, formatDateTime } from '../merchants/format.ts';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { showError, showSuccess } from '../ui/toaster.ts';
import { contributionIntent, formatContribution } from './display.ts';
import { useContribution } from './queries.ts';
import { standingOf } from './standing.ts';
import './contribution.css';
import './contribution-panel.css';

const WINDOWS = [
  ['Last 90 days', 'total_ninety_days_contribution_percentage'],
  ['Last 30 days', 'total_month_contribution_percentage'],
  ['Last 2 weeks', 'total_two_week_contribution_percentage'],
  ['Last week', 'total_week_contribution_percentage'],
] as const satisfies readonly (readonly [string, keyof ContributionView])[];

/**
 * A funder's contribution (accounts spec §2, §6): the four figures, the warning bar with its dates, what
 * happens at the expiry and how many records avoid it, what counts and what does not. Every member of
 * the funder sees it (the /contribution page); Recalculate is for its admins and platform admins, the
 * override for platform admins (the Contribution tab of /account and /funders/{id}).
 */
export function ContributionPanel({ accountId }: { accountId: string }) {
  const user = useSignedInUser();
  const contribution = useContribution(accountId);
  const view = contribution.data;
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
        view?.contribution_override
          ? 'The contribution requirement applies again.'
          : 'The contribution requirement is overridden.',
      );
      void invalidateAccountData(queryClient);
    },
    onError,
  });
  const params = { params: { id: accountId } };
  const mayRecalculate = user.is_dm_admin || (user.is_admin && user.account_resource_id === accountId);

  if (contribution.isError)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {contribution.error.message}
      </Callout>
    );
  if (!view) return <PageSpinner label="Loading contribution" />;
  return (
    <Card elevation={1} className="mrn-contribution-panel">
      <H4>Contribution</H4>
      <ContributionStanding view={view} />
      <HTMLTable compact className="mrn-contribution-windows" aria-label="Contribution percentages">
        <tbody>
          {WINDOWS.map(([label, field]) => (
            <tr key={field}>
              <th scope="row">{label}</th>
              <td>
                <Figure view={view} percent={view[field]} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <p>
        Over the last 90 days,{' '}
        {contributionMadeOf(view.contribution_records_added, view.contribution_merchants_searched)}.{' '}
        {view.contribution_merchants_searched === 0
          ? 'With no search in the window the figure is 100%.'
          : view.contribution_records_needed > 0
            ? `${moreRecords(view.contribution_records_needed)} would bring it to the ${MIN_CONTRIBUTION_PERCENT}% minimum.`
            : `That is at or above the ${MIN_CONTRIBUTION_PERCENT}% minimum.`}
      </p>
      <ul className={`mrn-contribution-rules ${Classes.TEXT_MUTED}`} aria-label="How contribution is counted">
        <li>{CONTRIBUTION_TEXTS.minimum}</li>
        <li>{CONTRIBUTION_TEXTS.formula}</li>
        <li>{CONTRIBUTION_TEXTS.added}</li>
        <li>{CONTRIBUTION_TEXTS.searched}</li>
        <li>{CONTRIBUTION_TEXTS.notCounted}</li>
        <li>
          Below {MIN_CONTRIBUTION_PERCENT}% a warning is issued that expires {CONTRIBUTION_WARNING_DAYS} days
          later; the funder's admins are e-mailed then and again {CONTRIBUTION_REMINDER_DAYS} days before it
          expires. {CONTRIBUTION_TEXTS.atExpiry} {CONTRIBUTION_TEXTS.lifted}
        </li>
      </ul>
      {(mayRecalculate || user.is_dm_admin) && (
        <div className="mrn-contribution-actions">
          {mayRecalculate && (
            <Button
              icon="refresh"
              text="Recalculate Contribution Percentage"
              loading={recalculate.isPending}
              onClick={() => recalculate.mutate(params)}
            />
          )}
          {user.is_dm_admin && (
            <Checkbox
              label="Contribution Requirement Override"
              checked={view.contribution_override}
              disabled={toggleOverride.isPending}
              onChange={() => toggleOverride.mutate(params)}
            />
          )}
        </div>
      )}
    </Card>
  );
}

/** A figure as a coloured tag; over 100 % with what it is made of in a tooltip. */
function Figure({ view, percent }: { view: ContributionView; percent: number }) {
  const tag = (
    <Tag size="large" minimal intent={contributionIntent(percent)}>
      {formatContribution(percent)}
    </Tag>
  );
  if (percent <= 100) return tag;
  return (
    <Tooltip
      content={
        <span className="mrn-contribution-tooltip">
          {overHundredExplained(view.contribution_records_added, view.contribution_merchants_searched)}
        </span>
      }
    >
      {tag}
    </Tooltip>
  );
}

/** The warning bar: warned (with its dates, the deadline and what avoids it), locked, or overridden. */
function ContributionStanding({ view }: { view: ContributionView }) {
  const min = `${MIN_CONTRIBUTION_PERCENT}%`;
  const avoid =
    view.contribution_records_needed > 0
      ? ` Adding ${moreRecords(view.contribution_records_needed)} brings it back to ${min} now.`
      : '';
  switch (standingOf(view)) {
    case 'overridden':
      return (
        <Callout intent={Intent.PRIMARY} icon="info-sign" className="mrn-callout-gap">
          The contribution requirement is overridden by a platform administrator: this funder can search
          whatever its contribution.
        </Callout>
      );
    case 'locked':
      return (
        <Callout
          intent={Intent.DANGER}
          icon="lock"
          title="Locked from search"
          className="mrn-callout-gap"
          role="alert"
        >
          The 90-day contribution is below {min} and the warning issued{' '}
          {formatDate(view.contribution_warning_date)} expired on{' '}
          {formatDate(view.contribution_warning_expire_date)}. Searching opens again as soon as added
          merchants and notes bring it back to {min}, or if a platform administrator overrides the
          requirement.{avoid}
        </Callout>
      );
    case 'warned':
      return (
        <Callout
          intent={Intent.WARNING}
          icon="warning-sign"
          title="Contribution warning"
          className="mrn-callout-gap"
          role="status"
        >
          Issued {formatDate(view.contribution_warning_date)}, expires{' '}
          {formatDateTime(view.contribution_warning_expire_date)}. The 90-day contribution is below {min}: if
          it is still below when the warning expires, searching is locked for every member until it is back at{' '}
          {min} or a platform administrator overrides the requirement.{avoid} The warning is lifted by itself
          as soon as the figure is back.
        </Callout>
      );
    default:
      return null;
  }
}
