import { describe, it } from 'vitest';
import { specFor } from '../testing.ts';
import { appSettingsDecider, defaultAppSettings } from './app-settings.ts';

const spec = specFor(appSettingsDecider, { now: new Date() });
const message = {
  dashboardMessageEnabled: true,
  dashboardMessageSeverity: 'warning' as const,
  dashboardMessageTitle: 'Heads up',
  dashboardMessage: 'Maintenance tonight',
};

describe('app settings decider', () => {
  it('records a change', () => {
    spec
      .given([])
      .when({ type: 'ChangeAppSettings', ...message })
      .thenEvents([{ type: 'AppSettingsChanged', data: message }]);
  });
  it('records nothing when the settings are saved unchanged', () => {
    spec
      .given([{ type: 'AppSettingsChanged', data: message }])
      .when({ type: 'ChangeAppSettings', ...message })
      .thenEvents([]);
    spec
      .given([])
      .when({ type: 'ChangeAppSettings', ...defaultAppSettings() })
      .thenEvents([]);
  });
});
