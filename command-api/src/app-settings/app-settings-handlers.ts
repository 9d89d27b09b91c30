import type { Routes } from '@mrn/contracts';
import type { Handler } from '@mrn/platform';
import { type CommandDeps, metadataFor } from '../context.ts';
import { appSettings } from './aggregate.ts';

export function appSettingsHandlers(deps: CommandDeps) {
  const updateAppSettings: Handler<Routes['updateAppSettings']> = async (req) => {
    const s = req.body.app_settings;
    const result = await appSettings.handle(
      deps,
      'app-settings',
      {
        type: 'ChangeAppSettings',
        dashboardMessageEnabled: s.dashboard_message_enabled,
        dashboardMessageSeverity: s.dashboard_message_severity,
        dashboardMessageTitle: s.dashboard_message_title,
        dashboardMessage: s.dashboard_message,
      },
      { now: deps.clock.now(), actor: req.actor },
      metadataFor(req),
    );
    return {
      data: {
        dashboard_message_enabled: result.state.dashboardMessageEnabled,
        dashboard_message_severity: result.state.dashboardMessageSeverity,
        dashboard_message_title: result.state.dashboardMessageTitle,
        dashboard_message: result.state.dashboardMessage,
      },
      position: result.position,
    };
  };
  return { updateAppSettings };
}
