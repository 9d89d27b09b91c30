import { Card, Classes, H2, H4, Icon, type IconName, Intent, Tag } from '@blueprintjs/core';
import { askAdminToUpgrade, ProFeatureList, UPGRADE_PATH } from '../accounts/ProUpgrade.tsx';
import { useSignedInUser } from '../auth/auth-context.ts';
import { PRODUCT_NAME } from '../product.ts';
import { PATHS } from '../routing/paths.ts';
import { ButtonLink } from '../ui/ButtonLink.tsx';
import { useDocumentTitle } from '../ui/use-document-title.ts';
import './subscriptions-unavailable.css';

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
 * What the merchant subscription pages show when the account cannot use them yet (accounts §2, §6: PRO
 * accounts with subscriptions enabled, for their admins): what the feature does and how to get it,
 * instead of being sent elsewhere without a word. An admin of a PRO account is told who turns them on;
 * in a BASIC account, what PRO gives and who can upgrade: the admin themselves, or, for any other
 * member, their account administrator (issue 32).
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
      {!onPro && (
        <Card elevation={1}>
          <H4>What PRO gives</H4>
          <ProFeatureList />
        </Card>
      )}
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
        ) : user.is_admin ? (
          <ol className={`${Classes.LIST} ${Classes.RUNNING_TEXT}`}>
            <li>
              Upgrade {user.account_name} to PRO on the Membership tab of your Account page. You see the
              prorated amount before you confirm.
            </li>
            <li>
              Then ask {PRODUCT_NAME}’s platform administrators to turn merchant subscriptions on for your
              account, and choose where notifications go in your Account settings.
            </li>
          </ol>
        ) : (
          <ol className={`${Classes.LIST} ${Classes.RUNNING_TEXT}`}>
            <li>{askAdminToUpgrade(user.account_name)}</li>
            <li>
              Once {user.account_name} is on PRO, your administrators have merchant subscriptions turned on
              and manage the EINs your account watches here.
            </li>
          </ol>
        )}
        <div className="mrn-form-actions mrn-actions-start">
          {onPro ? (
            <ButtonLink to={`${PATHS.account}?tab=settings`} text="Account settings" primary />
          ) : (
            user.is_admin && <ButtonLink to={UPGRADE_PATH} text="Upgrade to PRO" primary />
          )}
          <ButtonLink to={PATHS.pro} text="What PRO includes" primary={!onPro && !user.is_admin} />
        </div>
      </Card>
    </div>
  );
}
