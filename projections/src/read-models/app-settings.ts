import { projector } from '../projector.ts';

export const appSettingsProjector = projector({
  name: 'app_settings',
  tables: ['read.app_settings'],
  handlers: {
    AppSettingsChanged: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `insert into read.app_settings (id, dashboard_message_enabled, dashboard_message_severity, dashboard_message_title, dashboard_message, updated_at)
         values (1, $1, $2, $3, $4, $5)
         on conflict (id) do update set dashboard_message_enabled = excluded.dashboard_message_enabled,
           dashboard_message_severity = excluded.dashboard_message_severity,
           dashboard_message_title = excluded.dashboard_message_title,
           dashboard_message = excluded.dashboard_message, updated_at = excluded.updated_at`,
        [
          d.dashboardMessageEnabled,
          d.dashboardMessageSeverity,
          d.dashboardMessageTitle,
          d.dashboardMessage,
          e.recordedAt,
        ],
      );
    },
  },
});
