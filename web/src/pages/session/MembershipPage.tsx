import { Button, Callout, Card, Classes, H2, H4, Intent } from '@blueprintjs/core';
import { PLANS } from '@mrn/contracts/domain/plans';
import { useNavigate } from 'react-router-dom';
import { PlanComparison } from '../../accounts/PlanComparison.tsx';
import { monthlyPrice } from '../../accounts/plans.ts';
import { useAuth, useSignedInUser } from '../../auth/auth-context.ts';
import { PRODUCT_NAME } from '../../product.ts';
import { PATHS } from '../../routing/paths.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { VideoPlaceholder } from '../public/VideoPlaceholder.tsx';

/**
 * /membership. Plan choice with card payment comes with billing; until then the page explains the
 * membership state and how to start one.
 */
export function MembershipPage() {
  const user = useSignedInUser();
  const { logout } = useAuth();
  const navigate = useNavigate();
  useDocumentTitle('Membership');
  const active = user.active_membership || user.is_dm_admin;

  return (
    <div className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>Membership</H2>
        <p className={Classes.TEXT_MUTED}>{user.account_name}</p>
      </header>
      {active ? (
        <Callout
          intent={Intent.PRIMARY}
          icon="info-sign"
          title="Your account has an active membership or trial"
        >
          <p>
            Online plan activation and card payment are coming soon. To activate a paid membership or change
            plans now, contact the {PRODUCT_NAME} team and we will set it up for you.
          </p>
          <Button
            intent={Intent.PRIMARY}
            text="Back to the dashboard"
            onClick={() => navigate(PATHS.dashboard)}
          />
        </Callout>
      ) : (
        <Callout intent={Intent.WARNING} icon="warning-sign" title="No active membership">
          <p>
            {user.account_name} has no active membership, so the network's search and records are not
            available to its members yet. Please contact the {PRODUCT_NAME} team to start a trial or a
            membership; online sign-up with card payment will be available on this page soon.
          </p>
          <Button icon="log-out" text="Sign out" onClick={() => void logout()} />
        </Callout>
      )}
      <div className="mrn-plan-cards">
        <Card elevation={1} className="mrn-plan-card">
          <H4>Basic</H4>
          <p className="mrn-plan-price">
            {monthlyPrice('BASIC')} <span className={Classes.TEXT_MUTED}>/ month</span>
          </p>
          <p>
            Merchant search, adding merchants and notes, up to{' '}
            {PLANS.BASIC.dailySearchLimit?.toLocaleString('en-US')} searches a day.
          </p>
          <Button text="Start Basic Membership" disabled fill />
          <p className={`${Classes.TEXT_MUTED} mrn-small`}>Card payment coming soon</p>
        </Card>
        <Card elevation={1} className="mrn-plan-card mrn-plan-card-pro">
          <H4>Pro</H4>
          <p className="mrn-plan-price">
            {monthlyPrice('PRO')} <span className={Classes.TEXT_MUTED}>/ month</span>
          </p>
          <p>
            Everything in Basic, unlimited searches, API access, merchant subscriptions and search history.
          </p>
          <Button text="Start Pro Membership" intent={Intent.PRIMARY} disabled fill />
          <p className={`${Classes.TEXT_MUTED} mrn-small`}>Card payment coming soon</p>
        </Card>
      </div>
      <Card elevation={1}>
        <H4>Compare plans</H4>
        <PlanComparison current={user.plan_level} />
      </Card>
      <VideoPlaceholder title="How the network works" />
      <Card elevation={1}>
        <H4>Frequently asked questions</H4>
        <dl className="mrn-faq">
          <dt>Can I change plans later?</dt>
          <dd>Yes. Upgrades are prorated on the next invoice and downgrades give a prorated credit.</dd>
          <dt>What does contribution mean?</dt>
          <dd>
            Members share what they learn: to keep searching, an account's merchants and notes added over 90
            days must be at least 0.5% of the merchants it searched.
          </dd>
          <dt>Is this a consumer report?</dt>
          <dd>No. The network covers commercial entities only, including sole proprietors.</dd>
        </dl>
      </Card>
    </div>
  );
}
