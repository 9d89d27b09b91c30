import type { AppSettings, Routes } from '@mrn/contracts';
import type { Handler } from '@mrn/platform';
import type { QueryDeps } from '../context.ts';

const DEFAULTS: AppSettings = {
  dashboard_message_enabled: false,
  dashboard_message_severity: 'info',
  dashboard_message_title: null,
  dashboard_message: null,
};

export function appSettingsHandlers(deps: QueryDeps) {
  const getAppSettings: Handler<Routes['getAppSettings']> = async () => {
    const { rows } = await deps.pool.query<AppSettings>(
      `select dashboard_message_enabled, dashboard_message_severity, dashboard_message_title, dashboard_message
         from read.app_settings where id = 1`,
    );
    return { data: rows[0] ?? DEFAULTS };
  };
  return { getAppSettings };
}
