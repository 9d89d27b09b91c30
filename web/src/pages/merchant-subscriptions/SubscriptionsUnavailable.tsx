import { Card, Classes, H2, H4, Icon, type IconName, Intent, Tag } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import { useSignedInUser } from '../../auth/auth-context.ts';
import { PRODUCT_NAME } from '../../product.ts';
import { PATHS } from '../../routing/paths.ts';
import { useDocumentTitle } from '../../ui/use-document-title.ts';
import './subscriptions-unavailable.css';

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
    icon: 'eye-open',
    text: 'Watch EINs, one at a time, from a merchant’s page with its Subscription Enabled switch, or thousands at once from a CSV file.',
  },
  {
    icon: 'notifications',
    text: 'Hear the moment another member adds that merchant or a note on it: an e-mail to your team and, if you set one, a signed webhook to your own systems.',
  },
  {
    icon: 'history',
    text: 'See every webhook delivery, its attempts and answers, and send one again.',
  },
];

/**
 * What an account admin sees on the merchant subscription pages when the account cannot use them yet
 * (accounts §2, §6: PRO accounts with subscriptions enabled): what the feature does and how to get it,
 * instead of being sent elsewhere without a word.
 */
export function SubscriptionsUnavailable() {
  const user = useSignedInUser();
  const onPro = user.plan_level === 'PRO';
  const title = onPro
    ? 'Merchant Subscriptions is not turned on yet'
    : 'Merchant Subscriptions is a PRO feature';
  useDocumentTitle('Merchant Subscriptions');

  return (
    <div className="mrn-page mrn-narrow-page">
      <header className="mrn-page-header">
        <H2>{title}</H2>
        <p className={Classes.TEXT_MUTED}>
          {user.account_name} ·{' '}
          <Tag minimal intent={onPro ? Intent.PRIMARY : Intent.NONE}>
            {user.plan_level}
          </Tag>
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
        {onPro ? (
          <ol className={`${Classes.LIST} ${Classes.RUNNING_TEXT}`}>
            <li>
              {user.account_name} is on PRO, which includes merchant subscriptions. {PRODUCT_NAME}’s platform
              administrators turn them on for each account: ask them to enable merchant subscriptions for{' '}
              {user.account_name}.
            </li>
            <li>
              Once they are on, choose where notifications go (an e-mail address, a webhook address or both)
              in your Account settings, and this page lists the EINs you watch.
            </li>
          </ol>
        ) : (
          <ol className={`${Classes.LIST} ${Classes.RUNNING_TEXT}`}>
            <li>
              Upgrade {user.account_name} to PRO on the Membership tab of your Account page. You see the
              prorated amount before you confirm; PRO also brings unlimited searches, API access, EIN search
              history and submission sources.
            </li>
            <li>
              Then ask {PRODUCT_NAME}’s platform administrators to turn merchant subscriptions on for your
              account, and choose where notifications go in your Account settings.
            </li>
          </ol>
        )}
        <div className="mrn-form-actions mrn-actions-start">
          {onPro ? (
            <ButtonLink to={`${PATHS.account}?tab=settings`} text="Account settings" primary />
          ) : (
            <ButtonLink to={`${PATHS.account}?tab=membership`} text="Upgrade to PRO" primary />
          )}
          <ButtonLink to={PATHS.pro} text="What PRO includes" />
        </div>
      </Card>
    </div>
  );
}
