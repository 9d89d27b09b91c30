import { AnchorButton, Button, Callout, Card, Classes, H2, H3, H4, Intent } from '@blueprintjs/core';
import { PLANS } from '@mrn/contracts';
import { Link, useNavigate } from 'react-router-dom';
import { PlanComparison } from '../../accounts/PlanComparison.tsx';
import { monthlyPrice } from '../../accounts/plans.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { PRODUCT_NAME } from '../../product.ts';
import { PATHS } from '../../routing/paths.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { PrivacyPolicyText, TermsOfUseText } from './legal-text.tsx';
import { ProductWalkthrough } from './ProductWalkthrough.tsx';

/** /terms_of_use (public). */
export function TermsOfUsePage() {
  useDocumentTitle('Terms of Use');
  return (
    <article className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>Terms of Use</H2>
      </header>
      <Card elevation={1}>
        <TermsOfUseText />
      </Card>
    </article>
  );
}

/** /privacy_policy (public). */
export function PrivacyPolicyPage() {
  useDocumentTitle('Privacy Policy');
  return (
    <article className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>Privacy Policy</H2>
      </header>
      <Card elevation={1}>
        <PrivacyPolicyText />
      </Card>
    </article>
  );
}

/** /dispute_process (public): how a business owner disputes a record. */
export function DisputeProcessPage() {
  useDocumentTitle('Dispute Process');
  const navigate = useNavigate();
  return (
    <article className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>Dispute Process</H2>
        <p className={Classes.TEXT_MUTED}>
          For business owners who believe a record about their business is wrong.
        </p>
      </header>
      <Card elevation={1}>
        <div className={`${Classes.RUNNING_TEXT} mrn-legal`}>
          <p>
            {PRODUCT_NAME} is a network in which funders share their experience with{' '}
            <strong>commercial</strong> applicants and customers. It is not a consumer reporting agency and
            holds no consumer reports. Every record can be traced to the member who contributed it, and you
            can dispute any record about your business free of charge.
          </p>
          <H3>How to dispute a record</H3>
          <ol className="mrn-steps">
            <li>
              <strong>Submit the dispute form.</strong> Give the business's EIN, its legal name (and trade
              name, if any), city and state, your name and e-mail address, and explain which record is wrong
              and why. Include anything that supports your request, such as a payoff letter or a settlement
              agreement.
            </li>
            <li>
              <strong>We confirm receipt.</strong> The form shows a confirmation and a reference at once. We
              may e-mail you to confirm that you represent the business.
            </li>
            <li>
              <strong>We review the record.</strong> Our staff review the record's full history and ask the
              contributing member to support it. Members are required to co-operate with dispute reviews.
            </li>
            <li>
              <strong>We correct or remove it.</strong> A record that is inaccurate, cannot be substantiated
              or is not about a commercial relationship is corrected or removed. A debt shown as unpaid that
              has been settled is updated to Default Satisfied.
            </li>
            <li>
              <strong>We tell you the outcome</strong> by e-mail, normally within 30 days of receiving all the
              information we need.
            </li>
          </ol>
          <H3>Records older than seven years</H3>
          <p>
            On the business owner's request, records older than seven (7) years are removed from the network
            under this dispute policy, whatever their content.
          </p>
          <H3>What we cannot do</H3>
          <p>
            We cannot settle a debt between you and a funder or change what a funder decides. For those,
            contact the funder directly.
          </p>
        </div>
        <div className="mrn-form-actions">
          <Button
            intent={Intent.PRIMARY}
            icon="take-action"
            text="Dispute a record"
            onClick={() => navigate(PATHS.dispute)}
          />
        </div>
      </Card>
    </article>
  );
}

const PRO_FEATURES: { title: string; text: string }[] = [
  {
    title: 'Unlimited daily searches',
    text: `Search as often as your team needs; BASIC allows up to ${PLANS.BASIC.dailySearchLimit?.toLocaleString('en-US')} a day.`,
  },
  {
    title: `${PLANS.PRO.keywordMatchLimit} keyword matches`,
    text: `Legal-name searches return up to ${PLANS.PRO.keywordMatchLimit} merchants instead of ${PLANS.BASIC.keywordMatchLimit}.`,
  },
  { title: 'API access', text: 'Search and report from your own systems with the partner REST API.' },
  {
    title: 'Merchant subscriptions',
    text: 'Watch EINs and get an e-mail or a signed webhook the moment another member reports on them.',
  },
  {
    title: 'Submission source data',
    text: 'See whether a record came in-house/retail or through a broker/ISO, and which broker.',
  },
  {
    title: 'EIN search history',
    text: 'See how often a merchant was searched by the network over the last six months: a stacking signal.',
  },
];

/** /pro (public): the PRO marketing page. */
export function ProPage() {
  useDocumentTitle('PRO');
  const { state } = useAuth();
  const navigate = useNavigate();
  return (
    <article className="mrn-page">
      <header className="mrn-pro-hero">
        <H2>{PRODUCT_NAME} PRO</H2>
        <p className="mrn-pro-lead">
          Everything in BASIC plus the tools funders use to catch stacking early: unlimited searches, API
          access, merchant subscriptions and EIN search history.
        </p>
        <p className="mrn-plan-price">
          {monthlyPrice('PRO')} <span className={Classes.TEXT_MUTED}>/ month</span>
          <span className={`${Classes.TEXT_MUTED} mrn-price-compare`}>
            BASIC is {monthlyPrice('BASIC')} / month
          </span>
        </p>
        <div className="mrn-header-actions">
          {state.status === 'signed-in' ? (
            <Button
              intent={Intent.PRIMARY}
              size="large"
              text="See membership options"
              onClick={() => navigate(PATHS.membership)}
            />
          ) : (
            <Button
              intent={Intent.PRIMARY}
              size="large"
              icon="log-in"
              text="Sign in"
              onClick={() => navigate(PATHS.login)}
            />
          )}
          <AnchorButton size="large" href="#compare" text="Compare plans" variant="outlined" />
        </div>
      </header>
      <ProductWalkthrough tour="pro" title={`${PRODUCT_NAME} PRO in four steps`} framed />
      <div className="mrn-feature-grid">
        {PRO_FEATURES.map((f) => (
          <Card key={f.title} elevation={1} className="mrn-feature">
            <H4>{f.title}</H4>
            <p>{f.text}</p>
          </Card>
        ))}
      </div>
      <Card elevation={1} id="compare">
        <H3>Compare plans</H3>
        <PlanComparison />
      </Card>
      <Callout icon="info-sign">
        The network covers commercial entities only, including sole proprietors, and is not a consumer report.
        Read the <Link to={PATHS.termsOfUse}>terms of use</Link>.
      </Callout>
    </article>
  );
}
