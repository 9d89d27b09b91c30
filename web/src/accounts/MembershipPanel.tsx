import { Button, Callout, Card, Classes, H4, H5, Intent, Tag } from '@blueprintjs/core';
import type { AccountView } from '@mrn/contracts/routes/accounts';
import { Link } from 'react-router-dom';
import { formatDate } from '../merchants/format.ts';
import { VideoPlaceholder } from '../pages/public/VideoPlaceholder.tsx';
import { PATHS } from '../routing/paths.ts';
import { membershipIntent, membershipLabel, trialActions } from './membership.ts';
import { PlanComparison } from './PlanComparison.tsx';
import { useFunderActions } from './use-funder-actions.ts';

/**
 * Membership tab (accounts §2, §4): the state; Start Trial and Cancel Trial for platform
 * administrators; while trialing, in the own view, a link to activate the membership. Cancelling a
 * paid membership belongs to billing and is not offered yet.
 */
export function MembershipPanel({ account, view }: { account: AccountView; view: 'admin' | 'own' }) {
  const actions = useFunderActions();
  const status = account.membership_status;
  const { canStart, canCancel } = trialActions(status);
  const busy = actions.trialBusy(account.resource_id);
  const archived = account.archived_at !== null;

  return (
    <div className="mrn-tab-panel">
      <Card elevation={1}>
        <div className="mrn-card-title-row">
          <H4>Membership</H4>
          <span className="mrn-tag-row">
            <Tag intent={membershipIntent(status)} size="large">
              {membershipLabel(status)}
            </Tag>
            <Tag minimal size="large" intent={account.plan_level === 'PRO' ? Intent.PRIMARY : Intent.NONE}>
              {account.plan_level}
            </Tag>
          </span>
        </div>
        {status === 'trialing' && (
          <Callout intent={Intent.PRIMARY} icon="info-sign" className="mrn-callout-gap">
            {account.name} is in a trial
            {account.trial_started_at ? ` that started on ${formatDate(account.trial_started_at)}` : ''}.
            Members have full access while the trial lasts.
            {view === 'own' && (
              <>
                {' '}
                <Link to={PATHS.membership}>Activate Membership</Link> to keep access when it ends.
              </>
            )}
          </Callout>
        )}
        {status === 'none' && (
          <p className={Classes.RUNNING_TEXT}>
            No membership has been started, so members cannot search yet.
            {view === 'admin' ? ' Start a trial to give them access.' : ''}
          </p>
        )}
        {(status === 'canceled' || status === 'inactive') && (
          <p className={Classes.RUNNING_TEXT}>The membership has ended; members cannot search.</p>
        )}
        {status === 'active' && <p className={Classes.RUNNING_TEXT}>The membership is active.</p>}
        {view === 'admin' && (
          <div className="mrn-form-actions mrn-actions-start">
            {canStart && (
              <Button
                intent={Intent.PRIMARY}
                icon="play"
                text="Start Trial"
                loading={busy}
                disabled={archived}
                onClick={() => actions.startTrial(account.resource_id)}
              />
            )}
            {canCancel && (
              <Button
                intent={Intent.WARNING}
                icon="stop"
                text="Cancel Trial"
                loading={busy}
                disabled={archived}
                onClick={() => actions.cancelTrial(account.resource_id)}
              />
            )}
          </div>
        )}
      </Card>
      <Card elevation={1}>
        <H4>Manage Subscription Plan</H4>
        <PlanComparison current={account.plan_level} />
        <VideoPlaceholder title="What PRO adds" />
        <H5 className="mrn-danger-title">Danger Zone</H5>
        <p className={Classes.TEXT_MUTED}>
          Upgrading, downgrading and cancelling a paid membership (Cancel Membership) come with billing in the
          next release.
        </p>
      </Card>
    </div>
  );
}
