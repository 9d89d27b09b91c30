import { Button, Callout, Card, Classes, H2, H4, Intent } from '@blueprintjs/core';
import {
  type BillingState,
  hasActiveMembership,
  PLANS,
  type PlanLevel,
  proFeatureSentence,
  routes,
} from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PlanComparison } from '../../accounts/PlanComparison.tsx';
import { ProductWalkthrough } from '../../accounts/ProductWalkthrough.tsx';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { forgetAttemptedRoute } from '../../auth/attempted-route.ts';
import { useAuth, useSignedInUser } from '../../auth/auth-context.ts';
import { BillingStateCallout, describeBilling, useBillingState } from '../../billing/BillingState.tsx';
import { formatPrice } from '../../billing/money.ts';
import { type PaidMembership, PayDialog, PLAN_NAMES } from '../../billing/PayDialog.tsx';
import { invalidateBillingData, useBillingConfig } from '../../billing/queries.ts';
import { PRODUCT_NAME } from '../../product.ts';
import { PATHS } from '../../routing/paths.ts';
import { LONG_SUCCESS_TOAST_MS, showSuccess } from '../../ui/toaster.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';

export const ASK_ADMIN_TEXT =
  'Only an administrator of your account can start the membership. Please ask your account administrator to choose a plan on this page.';

const PLAN_SUMMARIES: Record<PlanLevel, string> = {
  BASIC: `Merchant search, adding merchants and notes, up to ${PLANS.BASIC.dailySearchLimit?.toLocaleString('en-US')} searches a day.`,
  PRO: proFeatureSentence(),
};

/**
 * /membership (accounts spec §2): Basic and Pro cards, the plan comparison, a video and FAQs.
 * Start Basic Membership / Start Pro Membership open the card payment panel for the account's
 * administrators; after the payment the session follows at once (membership, PRO badge) and the
 * dashboard opens (or the terms, when they are still to be agreed).
 */
export function MembershipPage() {
  const user = useSignedInUser();
  const { logout, continueAfterSignIn } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { prices } = useBillingConfig();
  const [paying, setPaying] = useState<PlanLevel | null>(null);
  useDocumentTitle('Membership');

  const isAccountAdmin = user.is_admin && !user.is_dm_admin;
  const account = useApiQuery(
    routes.getAccount,
    { params: { id: user.account_resource_id } },
    // Back from paying the open invoice in the provider's tab: read again.
    { select: (answer) => answer.data, enabled: isAccountAdmin, refetchOnWindowFocus: true },
  );
  // The one billing state (issue 21): a lapsed admin is told why and can pay the open invoice here.
  const state = useBillingState(account.data);
  const canPay = isAccountAdmin && state?.canStart === true;

  /** The session as the server now sees it (membership, PRO badge), then on to where the user was going. */
  const refreshSession = async () => {
    const fresh = await call(routes.dashboardUpdates, { body: { resource_id: user.resource_id } })
      .then((reply) => reply.data.user)
      .catch(() => user);
    forgetAttemptedRoute();
    continueAfterSignIn(fresh);
  };

  const onPaid = async (answer: PaidMembership) => {
    showSuccess(
      `Thank you! ${user.account_name} now has an active ${PLAN_NAMES[answer.plan_level]} membership.`,
      { timeoutMs: LONG_SUCCESS_TOAST_MS },
    );
    void invalidateBillingData(queryClient);
    // The session user as the server now sees it, so the membership step and the PRO badge follow.
    const fresh = await call(routes.dashboardUpdates, { body: { resource_id: user.resource_id } })
      .then((reply) => reply.data.user)
      .catch(() => user);
    const paid = hasActiveMembership(answer.membership_status);
    forgetAttemptedRoute();
    continueAfterSignIn({
      ...fresh,
      active_membership: fresh.active_membership || paid,
      plan_level: paid ? answer.plan_level : fresh.plan_level,
    });
  };

  return (
    <div className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>Membership</H2>
        <p className={Classes.TEXT_MUTED}>{user.account_name}</p>
      </header>
      <MembershipStanding
        isAccountAdmin={isAccountAdmin}
        isPlatformAdmin={user.is_dm_admin}
        activeMembership={user.active_membership}
        state={state}
        accountId={user.account_resource_id}
        accountName={user.account_name}
        onContinue={() => void refreshSession()}
        onManage={() => navigate(`${PATHS.account}?tab=membership`)}
        onDashboard={() => navigate(PATHS.dashboard)}
        onSignOut={() => void logout()}
      />
      <div className="mrn-plan-cards">
        {(['BASIC', 'PRO'] as const).map((plan) => (
          <Card
            key={plan}
            elevation={1}
            className={plan === 'PRO' ? 'mrn-plan-card mrn-plan-card-pro' : 'mrn-plan-card'}
          >
            <H4>{PLAN_NAMES[plan]}</H4>
            <p className="mrn-plan-price">
              {formatPrice(prices[plan])} <span className={Classes.TEXT_MUTED}>/ month</span>
            </p>
            <p>{PLAN_SUMMARIES[plan]}</p>
            <Button
              text={`Start ${PLAN_NAMES[plan]} Membership`}
              intent={plan === 'PRO' ? Intent.PRIMARY : Intent.NONE}
              icon="credit-card"
              size="large"
              disabled={!canPay}
              fill
              onClick={() => setPaying(plan)}
            />
            {!isAccountAdmin && !user.is_dm_admin && (
              <p className={`${Classes.TEXT_MUTED} mrn-small`}>Your account administrator can start it.</p>
            )}
          </Card>
        ))}
      </div>
      <Card elevation={1}>
        <H4>Compare plans</H4>
        <PlanComparison current={user.active_membership ? user.plan_level : undefined} prices={prices} />
      </Card>
      <ProductWalkthrough tour="network" title="How the network works" framed />
      <Card elevation={1}>
        <H4>Frequently asked questions</H4>
        <dl className="mrn-faq">
          <dt>How does billing work?</dt>
          <dd>
            The membership is billed monthly to the card you enter here: the first month is charged when you
            start, then the same day each month. Each invoice is on the Billing tab of your Account page, with
            its PDF, and the card can be changed there at any time.
          </dd>
          <dt>Can I change plans later?</dt>
          <dd>
            Yes, from the Membership tab of your Account page. An upgrade to Pro starts at once and the rest
            of the month is charged pro rata on your next invoice; a downgrade to Basic credits the unused
            part of Pro on your next invoice. You see the amount before you confirm.
          </dd>
          <dt>How do I cancel?</dt>
          <dd>
            An account administrator cancels with Cancel Membership in the Danger Zone of the Membership tab.
            The membership ends, members can no longer search, and you are signed out. You can start a new
            membership on this page whenever you like.
          </dd>
          <dt>What does contribution mean?</dt>
          <dd>
            {PRODUCT_NAME} works because members share what they learn: to keep searching, the merchants and
            notes an account added over 90 days must be at least 0.5% of the distinct merchants it searched.
            The figure is in the top bar and on the Contribution tab.
          </dd>
          <dt>Who can pay for the membership?</dt>
          <dd>
            Administrators of the account. Other members see the plans but are asked to contact their
            administrator.
          </dd>
          <dt>Is this a consumer report?</dt>
          <dd>No. The network covers commercial entities only, including sole proprietors.</dd>
        </dl>
      </Card>
      <PayDialog
        plan={paying}
        accountId={user.account_resource_id}
        defaultEmail={user.email}
        onClose={() => setPaying(null)}
        onPaid={onPaid}
      />
    </div>
  );
}

/** Where the account stands and what the visitor can do about it. */
function MembershipStanding({
  isAccountAdmin,
  isPlatformAdmin,
  activeMembership,
  state,
  accountId,
  accountName,
  onContinue,
  onManage,
  onDashboard,
  onSignOut,
}: {
  isAccountAdmin: boolean;
  isPlatformAdmin: boolean;
  activeMembership: boolean;
  state: BillingState | null;
  accountId: string;
  accountName: string;
  onContinue: () => void;
  onManage: () => void;
  onDashboard: () => void;
  onSignOut: () => void;
}) {
  const status = state?.kind;
  if (isPlatformAdmin)
    return (
      <Callout intent={Intent.PRIMARY} icon="info-sign" title="Platform administrators need no membership">
        <p>These are the plans funders choose from; their administrators pay on this page.</p>
        <Button intent={Intent.PRIMARY} text="Back to the dashboard" onClick={onDashboard} />
      </Callout>
    );
  // Held here while the membership lapsed, and it is back (the open invoice was paid): the session
  // still says otherwise until it is refreshed.
  if (isAccountAdmin && state?.inForce && !activeMembership && status !== 'trialing')
    return (
      <Callout intent={Intent.SUCCESS} icon="tick-circle" title="Your membership is active again">
        <p>{describeBilling(state)}</p>
        <Button intent={Intent.PRIMARY} text="Continue to the dashboard" onClick={onContinue} />
      </Callout>
    );
  if (isAccountAdmin && (status === 'active' || status === 'complimentary'))
    return (
      <Callout intent={Intent.SUCCESS} icon="tick-circle" title="Your membership is active">
        <p>
          {state && status === 'complimentary' ? `${describeBilling(state)} ` : ''}Upgrade, downgrade or
          cancel it on the Membership tab of your Account page.
        </p>
        <Button intent={Intent.PRIMARY} text="Manage Subscription Plan" onClick={onManage} />
      </Callout>
    );
  if (isAccountAdmin && state && (status === 'past_due' || status === 'lapsed'))
    return (
      <BillingStateCallout state={state} accountId={accountId} view="account">
        {status === 'past_due' ? (
          <Button text="Manage Subscription Plan" onClick={onManage} />
        ) : (
          <p>Or choose a plan below and pay by card to start a new membership.</p>
        )}
      </BillingStateCallout>
    );
  if (isAccountAdmin)
    return (
      <Callout
        intent={activeMembership ? Intent.PRIMARY : Intent.WARNING}
        icon={activeMembership ? 'info-sign' : 'warning-sign'}
        title={status === 'trialing' ? 'Activate your membership' : 'Choose a plan to start your membership'}
      >
        <p>
          {status === 'trialing'
            ? `${accountName} is in a trial. Choose a plan and pay by card to keep access when the trial ends.`
            : `${status === 'canceled' && state ? `${describeBilling(state)} ` : ''}${accountName} has no active membership. Choose a plan and pay by card: members can search as soon as the payment goes through.`}
        </p>
      </Callout>
    );
  if (activeMembership)
    return (
      <Callout
        intent={Intent.PRIMARY}
        icon="info-sign"
        title="Your account has an active membership or trial"
      >
        <p>Your account administrator manages the plan.</p>
        <Button intent={Intent.PRIMARY} text="Back to the dashboard" onClick={onDashboard} />
      </Callout>
    );
  return (
    <Callout intent={Intent.WARNING} icon="warning-sign" title="No active membership">
      <p>
        {accountName} has no active membership, so the network's search and records are not available to its
        members yet. {ASK_ADMIN_TEXT}
      </p>
      <Button icon="log-out" text="Sign out" onClick={onSignOut} />
    </Callout>
  );
}
