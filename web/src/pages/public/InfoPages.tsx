import { AnchorButton, Button, Callout, Card, Classes, H2, H3, H4, Intent, Tag } from '@blueprintjs/core';
import { PRO_FEATURES, type ProFeature } from '@mrn/contracts';
import { Link, useNavigate } from 'react-router-dom';
import { PlanComparison } from '../../accounts/PlanComparison.tsx';
import { ProductWalkthrough } from '../../accounts/ProductWalkthrough.tsx';
import { monthlyPrice } from '../../accounts/plans.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { PRODUCT_NAME } from '../../product.ts';
import { PATHS } from '../../routing/paths.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import { PrivacyPolicyText, TermsOfUseText } from './legal-text.tsx';

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

/** A card of /pro: a feature of contracts' one list, saying when BASIC has it too or it is coming. */
function FeatureCard({ feature }: { feature: ProFeature }) {
  return (
    <Card elevation={1} className="mrn-feature">
      <div className="mrn-feature-title">
        <H4>{feature.title ?? feature.name}</H4>
        {feature.coming ? (
          <Tag intent={Intent.PRIMARY} minimal round>
            Coming soon
          </Tag>
        ) : (
          feature.basic === true && (
            <Tag minimal round>
              Every plan
            </Tag>
          )
        )}
      </div>
      <p>{feature.description}</p>
    </Card>
  );
}

const PRO_SECTIONS = [
  { group: 'signals', title: 'Stacking and risk signals' },
  { group: 'tools', title: 'Tools for your team' },
] as const;

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
          Everything in BASIC plus the signals funders use to catch stacking early: who else is looking a
          merchant up, alerts when a merchant you watch is being shopped or its risk signals change, broker
          records, and the tools to act on them.
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
      {PRO_SECTIONS.map((section) => (
        <section key={section.group} className="mrn-pro-section" aria-labelledby={`pro-${section.group}`}>
          <H3 id={`pro-${section.group}`}>{section.title}</H3>
          <div className="mrn-feature-grid">
            {PRO_FEATURES.filter((f) => f.group === section.group).map((f) => (
              <FeatureCard key={f.key} feature={f} />
            ))}
          </div>
        </section>
      ))}
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
