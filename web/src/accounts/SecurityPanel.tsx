import { Card, Checkbox, Classes, H4, Switch } from '@blueprintjs/core';
import type { AccountView } from '@mrn/contracts';
import { useFunderActions } from './use-funder-actions.ts';

/** Security tab: the Multi-Factor Authentication card (accounts §2) and the funder's API access. */
export function SecurityPanel({ account }: { account: AccountView }) {
  const actions = useFunderActions();
  const busy = actions.mfaBusy(account.resource_id);
  const archived = account.archived_at !== null;
  return (
    <div className="mrn-tab-panel">
      <Card elevation={1}>
        <H4>Multi-Factor Authentication</H4>
        <p className={Classes.RUNNING_TEXT}>
          When required, every member of {account.name} sets up an authenticator app at their next sign-in and
          enters a 6-digit code each time they sign in, unless they chose to remember the device.
        </p>
        <Checkbox
          label="Require Multi-Factor Authentication"
          checked={account.mfa_required}
          disabled={busy || archived}
          onChange={() => actions.toggleMfa(account)}
        />
      </Card>
      <Card elevation={1}>
        <H4>API Access</H4>
        <p className={Classes.RUNNING_TEXT}>
          With API access, the account's administrators can issue API credentials to their members for the
          partner API (see the developer guide).
        </p>
        <Switch
          label="API access granted"
          checked={account.can_access_api}
          disabled={actions.apiBusy(account.resource_id) || archived}
          onChange={() => actions.toggleApi(account)}
        />
      </Card>
    </div>
  );
}
