import { Callout } from '@blueprintjs/core';
import { useAppSettings } from '../../api/app-settings.ts';
import { MESSAGE_INTENT } from './message-intent.ts';

/** The app-wide dashboard message set by platform administrators in Settings. */
export function AppMessageBar() {
  const { data: settings } = useAppSettings();
  if (!settings?.dashboard_message_enabled || !settings.dashboard_message) return null;
  return (
    <Callout
      className="mrn-app-message"
      intent={MESSAGE_INTENT[settings.dashboard_message_severity]}
      title={settings.dashboard_message_title ?? undefined}
      role="status"
    >
      <p className="mrn-preserve-lines">{settings.dashboard_message}</p>
    </Callout>
  );
}
