import * as accounts from './accounts.ts';
import * as analytics from './analytics.ts';
import * as appSettings from './app-settings.ts';
import * as auth from './auth.ts';
import * as billing from './billing.ts';
import * as disputes from './disputes.ts';
import * as merchantSubscriptions from './merchant-subscriptions.ts';
import * as merchants from './merchants.ts';
import { partnerRoutes } from './partner-api.ts';
import * as sandbox from './sandbox.ts';
import * as users from './users.ts';

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
  otpNew: auth.otpNew,
  otpRegister: auth.otpRegister,
  otpVerify: auth.otpVerify,
  dashboardUpdates: auth.dashboardUpdates,
  listAccounts: accounts.listAccounts,
  createAccount: accounts.createAccount,
  getAccount: accounts.getAccount,
  updateAccount: accounts.updateAccount,
  archiveAccount: accounts.archiveAccount,
  grantAccountApiAccess: accounts.grantAccountApiAccess,
  revokeAccountApiAccess: accounts.revokeAccountApiAccess,
  startTrial: accounts.startTrial,
  cancelTrial: accounts.cancelTrial,
  toggleContributionOverride: accounts.toggleContributionOverride,
  recalculateContribution: accounts.recalculateContribution,
  createSubscription: billing.createSubscription,
  cancelSubscription: billing.cancelSubscription,
  upgradeSubscription: billing.upgradeSubscription,
  downgradeSubscription: billing.downgradeSubscription,
  previewPlanChange: billing.previewPlanChange,
  listInvoices: billing.listInvoices,
  getBillingUpdateUrl: billing.getBillingUpdateUrl,
  getPaymentMethod: billing.getPaymentMethod,
  getBillingConfig: billing.getBillingConfig,
  toggleAccountMfaRequired: accounts.toggleAccountMfaRequired,
  exportContacts: accounts.exportContacts,
  listMemberFunders: accounts.listMemberFunders,
  listAccountUsers: users.listAccountUsers,
  createUser: users.createUser,
  getUser: users.getUser,
  updateUser: users.updateUser,
  archiveUser: users.archiveUser,
  restoreUser: users.restoreUser,
  toggleUserAdmin: users.toggleUserAdmin,
  toggleUserMfaRequired: users.toggleUserMfaRequired,
  grantUserApiAccess: users.grantUserApiAccess,
  regenerateApiKey: users.regenerateApiKey,
  revokeUserApiAccess: users.revokeUserApiAccess,
  getApiCredentials: users.getApiCredentials,
  forgetDevice: users.forgetDevice,
  resetMfa: users.resetMfa,
  agreeToTerms: users.agreeToTerms,
  changePassword: users.changePassword,
  adminChangePassword: users.adminChangePassword,
  forgotPassword: users.forgotPassword,
  passwordReset: users.passwordReset,
  createDispute: disputes.createDispute,
  listDisputes: disputes.listDisputes,
  listDevMailbox: disputes.listDevMailbox,
  resetSandbox: sandbox.resetSandbox,
  listMerchantSubscriptions: merchantSubscriptions.listMerchantSubscriptions,
  addMerchantSubscription: merchantSubscriptions.addMerchantSubscription,
  deleteSelectedMerchantSubscriptions: merchantSubscriptions.deleteSelectedMerchantSubscriptions,
  deleteAllMerchantSubscriptions: merchantSubscriptions.deleteAllMerchantSubscriptions,
  listSubscriptionImports: merchantSubscriptions.listSubscriptionImports,
  listWebhookDeliveries: merchantSubscriptions.listWebhookDeliveries,
  getWebhookDelivery: merchantSubscriptions.getWebhookDelivery,
  redeliverWebhook: merchantSubscriptions.redeliverWebhook,
  rotateWebhookSigningSecret: merchantSubscriptions.rotateWebhookSigningSecret,
  createPresignedUrl: merchantSubscriptions.createPresignedUrl,
  createSubscriptionImport: merchantSubscriptions.createSubscriptionImport,
  downloadSubscriptionImportResults: merchantSubscriptions.downloadSubscriptionImportResults,
  searchesByDay: analytics.searchesByDay,
  additionsByDay: analytics.additionsByDay,
  searchesBySource: analytics.searchesBySource,
  hitsByCategory: analytics.hitsByCategory,
  // The partner API v2 (accounts spec §7): the same table, so both services register it and the
  // OpenAPI document is generated from it.
  ...partnerRoutes,
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
export type RoutesOf<S extends 'command' | 'query'> = {
  [K in RouteName as Routes[K]['service'] extends S ? K : never]: Routes[K];
};
