import { Classes, Intent, Tag } from '@blueprintjs/core';
import { PRO_FEATURES, type SessionUser } from '@mrn/contracts';
import { PATHS } from '../routing/paths.ts';
import { ButtonLink } from '../ui/ButtonLink.tsx';
import './pro-upgrade.css';

/** Where an account admin upgrades: the Membership tab of the Account page. */
export const UPGRADE_PATH = `${PATHS.account}?tab=membership`;

/** Who can upgrade the account to PRO, said to a member who cannot (issue 32). */
export const askAdminToUpgrade = (accountName: string): string =>
  `Only an administrator of ${accountName} can upgrade it to PRO, on the Membership tab of the Account page: ask your account administrator.`;

/**
 * What PRO gives beyond BASIC, from contracts' one list (`PRO_FEATURES`), as every page that sells PRO
 * says it: each feature's name and what it does, the ones still to come marked so.
 */
export function ProFeatureList() {
  return (
    <ul className="mrn-pro-feature-list" aria-label="What PRO gives">
      {PRO_FEATURES.filter((f) => f.basic !== true).map((f) => (
        <li key={f.key}>
          <strong>{f.title ?? f.name}</strong>
          {f.coming && (
            <>
              {' '}
              <Tag intent={Intent.PRIMARY} minimal round>
                Coming soon
              </Tag>
            </>
          )}
          <span className={Classes.TEXT_MUTED}> {f.description}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The way to PRO for the member in front of the screen: an account admin upgrades on the Membership tab;
 * any other member is told their account administrator can. Both can read what PRO includes.
 */
export function UpgradeActions({ user }: { user: Pick<SessionUser, 'is_admin' | 'account_name'> }) {
  return (
    <div className="mrn-upgrade-actions">
      {!user.is_admin && <p className={Classes.RUNNING_TEXT}>{askAdminToUpgrade(user.account_name)}</p>}
      <div className="mrn-upgrade-buttons">
        {user.is_admin && <ButtonLink to={UPGRADE_PATH} text="Upgrade to PRO" primary />}
        <ButtonLink to={PATHS.pro} text="What PRO includes" primary={!user.is_admin} />
      </div>
    </div>
  );
}
