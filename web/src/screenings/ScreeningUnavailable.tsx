import { Card, Classes, H2, H4, Icon, type IconName, Intent, Tag } from '@blueprintjs/core';
import { SCREENING_MAX_EINS, SCREENING_TEXTS } from '@mrn/contracts';
import { Link } from 'react-router-dom';
import { useSignedInUser } from '../auth/auth-context.ts';
import { PATHS } from '../routing/paths.ts';
import { useDocumentTitle } from '../ui/use-document-title.ts';
import '../merchant-subscriptions/subscriptions-unavailable.css';

/** A router link drawn as a Blueprint button (it navigates, so it is a link for assistive technology). */
function ButtonLink({ to, text, primary }: { to: string; text: string; primary?: boolean }) {
  return (
    <Link
      to={to}
      className={`${Classes.BUTTON} ${primary ? Classes.INTENT_PRIMARY : Classes.MINIMAL} mrn-button-link`}
    >
      <span className={Classes.BUTTON_TEXT}>{text}</span>
    </Link>
  );
}

const WHAT_IT_DOES: { icon: IconName; text: string }[] = [
  {
    icon: 'upload',
    text: `Upload a CSV of up to ${SCREENING_MAX_EINS.toLocaleString('en-US')} EINs, your funded portfolio for its monthly review, or screen every EIN your account watches, in one step instead of one search an EIN.`,
  },
  {
    icon: 'timeline-bar-chart',
    text: 'Get a report, worst first: each EIN found in the network or not, with how many funders reported it and what, in the last 90 days, 12 months and ever, and a chart of the portfolio’s exposure by category.',
  },
  {
    icon: 'document',
    text: 'Download it as a CSV for your spreadsheets and as a PDF for your credit committee, and watch every merchant found in one step.',
  },
  { icon: 'info-sign', text: SCREENING_TEXTS.rules },
];

/**
 * What a member whose account is not on PRO sees at the screening pages (issue 32): what screening does
 * and how to get it, as the other PRO pages say it, instead of a refusal.
 */
export function ScreeningUnavailable() {
  const user = useSignedInUser();
  useDocumentTitle('Portfolio Screening');
  return (
    <div className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>Portfolio Screening is a PRO feature</H2>
        <p className={Classes.TEXT_MUTED}>
          {user.account_name} · <Tag minimal>{user.plan_level}</Tag>
        </p>
      </header>
      <Card elevation={1}>
        <H4>What it does</H4>
        <ul className="mrn-icon-list">
          {WHAT_IT_DOES.map((item) => (
            <li key={item.icon}>
              <Icon icon={item.icon} intent={Intent.PRIMARY} size={18} />
              <span>{item.text}</span>
            </li>
          ))}
        </ul>
      </Card>
      <Card elevation={1}>
        <H4>How to get it</H4>
        <p className={Classes.RUNNING_TEXT}>
          {user.is_admin
            ? `Upgrade ${user.account_name} to PRO on the Membership tab of your Account page. You see the prorated amount before you confirm; PRO also brings unlimited searches, inquiry velocity, merchant subscriptions, API access and broker records.`
            : `Ask an admin of ${user.account_name} to upgrade the account to PRO on the Membership tab of its Account page. PRO also brings unlimited searches, inquiry velocity, merchant subscriptions, API access and broker records.`}
        </p>
        <div className="mrn-form-actions mrn-actions-start">
          {user.is_admin && (
            <ButtonLink to={`${PATHS.account}?tab=membership`} text="Upgrade to PRO" primary />
          )}
          <ButtonLink to={PATHS.pro} text="What PRO includes" primary={!user.is_admin} />
        </div>
      </Card>
    </div>
  );
}
