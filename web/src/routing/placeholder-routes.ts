import { PATHS } from './paths.ts';

/** Screens whose content later issues build; their routes, guards and layout are real now. */
export interface PlaceholderRoute {
  path: string;
  title: string;
  summary: string;
}

export const PUBLIC_FORM_PLACEHOLDERS: PlaceholderRoute[] = [
  { path: PATHS.forgotPassword, title: 'Forgot password', summary: 'Request a link to reset your password.' },
  { path: PATHS.passwordReset, title: 'Reset password', summary: 'Choose a new password for your account.' },
];

export const PUBLIC_PAGE_PLACEHOLDERS: PlaceholderRoute[] = [
  {
    path: PATHS.termsOfUse,
    title: 'Terms of Use',
    summary: 'The terms under which members use the network.',
  },
  {
    path: PATHS.privacyPolicy,
    title: 'Privacy Policy',
    summary: 'How the network handles personal information.',
  },
  {
    path: PATHS.pro,
    title: 'PRO membership',
    summary: 'What PRO adds: search history, merchant subscriptions, submission source data and API access.',
  },
  {
    path: PATHS.dispute,
    title: 'Merchant Dispute',
    summary: 'Business owners can dispute a record about their business here.',
  },
  {
    path: PATHS.disputeProcess,
    title: 'Dispute Process',
    summary: 'How a business owner disputes a record.',
  },
  {
    path: PATHS.developers,
    title: 'Developers',
    summary: 'The partner REST API: authentication and endpoints.',
  },
];

export const SESSION_STEP_PLACEHOLDERS: PlaceholderRoute[] = [
  {
    path: PATHS.mfaRegistration,
    title: 'Set up two-factor authentication',
    summary: 'Scan the QR code with your authenticator app and enter the 6-digit code.',
  },
  {
    path: PATHS.mfaVerification,
    title: 'Authenticate your account',
    summary: 'Enter the 6-digit code from your authenticator app.',
  },
  {
    path: PATHS.membership,
    title: 'Membership',
    summary: 'Choose the Basic or Pro plan to start your membership.',
  },
  {
    path: PATHS.agreeToTerms,
    title: 'Terms of Use',
    summary: 'Read and agree to the terms of use to continue.',
  },
];

export const MEMBER_PLACEHOLDERS: PlaceholderRoute[] = [
  {
    path: PATHS.analytics,
    title: 'Analytics',
    summary: 'Additions and searches by day, searches by source and hits by category.',
  },
  { path: PATHS.members, title: 'Our Members', summary: 'The funders who are members of the network.' },
  {
    path: PATHS.profile,
    title: 'Profile',
    summary: 'Your name, e-mail address, password and two-factor settings.',
  },
];

export const ACCOUNT_ADMIN_PLACEHOLDERS: PlaceholderRoute[] = [
  {
    path: PATHS.account,
    title: 'Account',
    summary: 'Account settings, members, membership, billing and contribution.',
  },
  { path: PATHS.newAccountMember, title: 'Add Member', summary: 'Add a member to your account.' },
  { path: PATHS.accountMember, title: 'Member', summary: 'Edit a member of your account.' },
];

export const MERCHANT_SUBSCRIPTION_PLACEHOLDERS: PlaceholderRoute[] = [
  {
    path: PATHS.merchantSubscriptions,
    title: 'Merchant Subscriptions',
    summary: 'The EINs your account watches, with notification e-mails and webhooks.',
  },
  {
    path: PATHS.merchantSubscriptionImports,
    title: 'Uploads',
    summary: 'CSV uploads of merchant subscriptions.',
  },
  {
    path: PATHS.merchantSubscriptionWebhookLogs,
    title: 'Webhook Logs',
    summary: 'Webhook deliveries and retries.',
  },
];

export const PLATFORM_ADMIN_PLACEHOLDERS: PlaceholderRoute[] = [
  { path: PATHS.funders, title: 'Funders', summary: 'Every funder account of the network.' },
  { path: PATHS.newFunder, title: 'Add Funder', summary: 'Open a new funder account.' },
  {
    path: PATHS.funder,
    title: 'Funder',
    summary: 'Funder settings, membership, members, security and billing.',
  },
  { path: PATHS.newFunderMember, title: 'Add Member', summary: 'Add a member to this funder.' },
  { path: PATHS.funderMember, title: 'Member', summary: 'Edit a member of this funder.' },
  { path: PATHS.settings, title: 'Settings', summary: 'The app-wide dashboard message.' },
];
