import * as appSettings from './app-settings.ts';
import * as auth from './auth.ts';
import * as merchants from './merchants.ts';

/** Every HTTP route of the product, by name: the single source for both APIs and the web client. */
export const routes = {
  login: auth.login,
  autoLogin: auth.autoLogin,
  logout: auth.logout,
  getAppSettings: appSettings.getAppSettings,
  updateAppSettings: appSettings.updateAppSettings,
  searchMerchants: merchants.searchMerchants,
  merchantCheckExists: merchants.merchantCheckExists,
  searchCounts: merchants.searchCounts,
  listMerchants: merchants.listMerchants,
  addMerchant: merchants.addMerchant,
  getMerchant: merchants.getMerchant,
  updateMerchant: merchants.updateMerchant,
  archiveMerchant: merchants.archiveMerchant,
  merchantHistory: merchants.merchantHistory,
  listMerchantNotes: merchants.listMerchantNotes,
  listDeletedMerchants: merchants.listDeletedMerchants,
  getDeletedMerchant: merchants.getDeletedMerchant,
  listDeletedNotes: merchants.listDeletedNotes,
  addNote: merchants.addNote,
  updateNote: merchants.updateNote,
  archiveNote: merchants.archiveNote,
  requestNoteDeletion: merchants.requestNoteDeletion,
  listReportedNotes: merchants.listReportedNotes,
  recentNotes: merchants.recentNotes,
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
export type RoutesOf<S extends 'command' | 'query'> = {
  [K in RouteName as Routes[K]['service'] extends S ? K : never]: Routes[K];
};
