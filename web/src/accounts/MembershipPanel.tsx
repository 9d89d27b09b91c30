import { Alert, Button, Callout, Card, Classes, H4, H5, Intent, Tag } from '@blueprintjs/core';
import { type AccountView, billingStateOf } from '@mrn/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { BillingStateCallout, BillingStateTag, describeBilling } from '../billing/BillingState.tsx';
import { PLAN_CHANGES, type PlanChange, PlanChangeDialog } from '../billing/PlanChangeDialog.tsx';
import { useBillingConfig } from '../billing/queries.ts';
import { useMembershipChanges } from '../billing/use-membership-changes.ts';
import { formatDate } from '../merchants/format.ts';
import { PATHS } from '../routing/paths.ts';
import { trialActions } from './membership.ts';
import { PlanComparison } from './PlanComparison.tsx';
import { ProductWalkthrough } from './ProductWalkthrough.tsx';
import { useFunderActions } from './use-funder-actions.ts';
import '../billing/billing.css';

export const CANCEL_MEMBERSHIP_QUESTION = 'Are you sure you want to cancel membership?';

/**
 * Membership tab (accounts §2, §4): the state and, for a paid membership, its renewal date; Start
 * Trial and Cancel Trial for platform administrators; while trialing, in the own view, a link to
 * activate the membership. Manage Subscription Plan compares the plans and, for an active membership,
 * upgrades or downgrades after a preview of the prorated amount; the Danger Zone cancels it.
 */
export function MembershipPanel({ account, view }: { account: AccountView; view: 'admin' | 'own' }) {
  const actions = useFunderActions();
  const status = account.membership_status;
  const { canStart, canCancel } = trialActions(status);
  const busy = actions.trialBusy(account.resource_id);
  const archived = account.archived_at !== null;
  // The one billing state (issue 21): the tag, the sentence and what can be done follow from it.
  const state = billingStateOf(account);
  const paid = state.manageable;
  const { prices } = useBillingConfig();
  const [planChange, setPlanChange] = useState<PlanChange | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const changes = useMembershipChanges(account.resource_id, view, {
    onChanged: () => {
      setPlanChange(null);
      setConfirmingCancel(false);
    },
  });
  const change: PlanChange = account.plan_level === 'PRO' ? 'downgrade' : 'upgrade';

  return (
    <div className="mrn-tab-panel">
      <Card elevation={1}>
        <div className="mrn-card-title-row">
          <H4>Membership</H4>
          <span className="mrn-tag-row">
            <BillingStateTag state={state} size="large" />
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
        {(state.kind === 'none' ||
          state.kind === 'canceled' ||
          state.kind === 'active' ||
          state.kind === 'complimentary') && (
          <p className={Classes.RUNNING_TEXT}>
            {describeBilling(state)}
            {view === 'admin' && state.kind === 'none' ? ' Start a trial to give them access.' : ''}
            {view === 'own' && (state.kind === 'none' || state.kind === 'canceled') && (
              <>
                {' '}
                <Link to={PATHS.membership}>Choose a plan</Link> to start{' '}
                {state.kind === 'none' ? 'one' : 'a new one'}.
              </>
            )}
          </p>
        )}
        <BillingStateCallout
          state={state}
          accountId={account.resource_id}
          view={view === 'admin' ? 'funder' : 'account'}
        >
          {view === 'own' && state.kind === 'lapsed' && (
            <p>
              <Link to={PATHS.membership}>Choose a plan</Link> to start a new membership instead.
            </p>
          )}
        </BillingStateCallout>
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
        <PlanComparison current={account.plan_level} prices={prices} />
        {paid && (
          <div className="mrn-plan-actions">
            <Button
              intent={change === 'upgrade' ? Intent.PRIMARY : Intent.NONE}
              icon={change === 'upgrade' ? 'arrow-up' : 'arrow-down'}
              text={PLAN_CHANGES[change].title}
              disabled={archived}
              onClick={() => setPlanChange(change)}
            />
          </div>
        )}
        {!paid && (
          <p className={`${Classes.TEXT_MUTED} mrn-plan-card-note`}>
            Plans can be changed once a paid membership is active.
          </p>
        )}
        <ProductWalkthrough tour="pro" title="What PRO adds" />
        <section className="mrn-danger-zone" aria-labelledby="danger-zone-title">
          <H5 id="danger-zone-title" className="mrn-danger-title">
            Danger Zone
          </H5>
          {paid ? (
            <>
              <p>
                Cancelling ends the paid membership: members lose access to search and the network's records
                {view === 'own' ? ', and you are signed out' : ''}. Invoices already paid are not refunded.
              </p>
              <Button
                intent={Intent.DANGER}
                icon="disable"
                text="Cancel Membership"
                disabled={archived}
                onClick={() => setConfirmingCancel(true)}
              />
            </>
          ) : (
            <p className={Classes.TEXT_MUTED}>There is no paid membership to cancel.</p>
          )}
        </section>
      </Card>
      <PlanChangeDialog
        change={planChange}
        accountId={account.resource_id}
        busy={changes.planChangeBusy}
        onConfirm={changes.changePlan}
        onClose={() => setPlanChange(null)}
      />
      <Alert
        isOpen={confirmingCancel}
        intent={Intent.DANGER}
        icon="disable"
        confirmButtonText="Cancel Membership"
        cancelButtonText="Keep Membership"
        loading={changes.cancelBusy}
        canEscapeKeyCancel={!changes.cancelBusy}
        onCancel={() => setConfirmingCancel(false)}
        onConfirm={changes.cancel}
      >
        <p>{CANCEL_MEMBERSHIP_QUESTION}</p>
      </Alert>
    </div>
  );
}
