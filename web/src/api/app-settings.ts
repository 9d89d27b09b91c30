import { routes } from '@mrn/contracts';
import { apiQuery, useApiQuery } from './hooks.ts';

/** App settings change rarely (a platform administrator edits the dashboard message). */
const APP_SETTINGS_STALE_MS = 5 * 60_000;

export const appSettingsQuery = () => ({
  ...apiQuery(routes.getAppSettings),
  staleTime: APP_SETTINGS_STALE_MS,
});

export const useAppSettings = () =>
  useApiQuery(routes.getAppSettings, undefined, {
    staleTime: APP_SETTINGS_STALE_MS,
    select: (answer) => answer.data,
  });
