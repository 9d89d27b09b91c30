import * as appSettings from './app-settings.ts';
import * as auth from './auth.ts';

/** Every HTTP route of the product, by name: the single source for both APIs and the web client. */
export const routes = {
  login: auth.login,
  autoLogin: auth.autoLogin,
  logout: auth.logout,
  getAppSettings: appSettings.getAppSettings,
  updateAppSettings: appSettings.updateAppSettings,
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
export type RoutesOf<S extends 'command' | 'query'> = {
  [K in RouteName as Routes[K]['service'] extends S ? K : never]: Routes[K];
};
