import { Navigate, Route, Routes } from 'react-router-dom';
import { MainLayout } from '../layout/MainLayout.tsx';
import { PublicLayout } from '../layout/PublicLayout.tsx';
import { LogoutPage } from '../pages/LogoutPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { PlaceholderPage } from '../pages/PlaceholderPage.tsx';
import { PATHS } from '../routing/paths.ts';
import { registerPreloadedRoutes } from '../routing/preload.ts';
import {
  isAccountAdmin,
  isPlatformAdmin,
  RequireMember,
  RequireMerchantSubscriptions,
  RequireRole,
  RequireSession,
} from './guards.tsx';
import { lazyPage } from './lazy-page.tsx';
import { MEMBER_PLACEHOLDERS, type PlaceholderRoute } from './placeholder-routes.ts';

const page = lazyPage;

const LoginPage = page(() => import('../pages/login/LoginPage.tsx'), 'LoginPage');
const ForgotPasswordPage = page(
  () => import('../pages/password/ForgotPasswordPage.tsx'),
  'ForgotPasswordPage',
);
const PasswordResetPage = page(() => import('../pages/password/PasswordResetPage.tsx'), 'PasswordResetPage');
const DashboardPage = lazyPage<
  typeof import('../pages/dashboard/DashboardPage.tsx'),
  {
    withProIntroduction: boolean;
  }
>(() => import('../pages/dashboard/DashboardPage.tsx'), 'DashboardPage');
const SearchPage = page(() => import('../pages/search/SearchPage.tsx'), 'SearchPage');
const AddMerchantPage = page(() => import('../merchants/AddMerchantPage.tsx'), 'AddMerchantPage');
const MerchantPage = page(() => import('../merchants/MerchantPage.tsx'), 'MerchantPage');
const AdminMerchantsPage = page(
  () => import('../pages/admin-merchants/AdminMerchantsPage.tsx'),
  'AdminMerchantsPage',
);
const DeletedMerchantPage = page(
  () => import('../pages/admin-merchants/DeletedMerchantPage.tsx'),
  'DeletedMerchantPage',
);

const MfaRegistrationPage = page(
  () => import('../pages/session/MfaRegistrationPage.tsx'),
  'MfaRegistrationPage',
);
const MfaVerificationPage = page(
  () => import('../pages/session/MfaVerificationPage.tsx'),
  'MfaVerificationPage',
);
const AgreeToTermsPage = page(() => import('../pages/session/AgreeToTermsPage.tsx'), 'AgreeToTermsPage');
const MembershipPage = page(() => import('../pages/session/MembershipPage.tsx'), 'MembershipPage');

const ProfilePage = page(() => import('../pages/profile/ProfilePage.tsx'), 'ProfilePage');
const AnalyticsPage = page(() => import('../analytics/AnalyticsPage.tsx'), 'AnalyticsPage');
const BrokersPage = page(() => import('../pages/brokers/BrokersPage.tsx'), 'BrokersPage');
const BrokerPage = page(() => import('../pages/brokers/BrokerPage.tsx'), 'BrokerPage');
const ContributionPage = page(() => import('../contribution/ContributionPage.tsx'), 'ContributionPage');
const OurMembersPage = page(() => import('../pages/members/OurMembersPage.tsx'), 'OurMembersPage');
const AccountPage = page(() => import('../accounts/AccountPage.tsx'), 'AccountPage');
const MemberPage = lazyPage<
  typeof import('../pages/members/MemberPage.tsx'),
  React.ComponentProps<typeof import('../pages/members/MemberPage.tsx').MemberPage>
>(() => import('../pages/members/MemberPage.tsx'), 'MemberPage');
const MerchantSubscriptionsPage = page(
  () => import('../merchant-subscriptions/MerchantSubscriptionsPage.tsx'),
  'MerchantSubscriptionsPage',
);
const SubscriptionsUnavailable = page(
  () => import('../merchant-subscriptions/SubscriptionsUnavailable.tsx'),
  'SubscriptionsUnavailable',
);
const ScreeningsPage = page(() => import('../screenings/ScreeningsPage.tsx'), 'ScreeningsPage');
const ScreeningReportPage = page(
  () => import('../screenings/ScreeningReportPage.tsx'),
  'ScreeningReportPage',
);
const FundersPage = page(() => import('../pages/funders/FundersPage.tsx'), 'FundersPage');
const NewFunderPage = page(() => import('../pages/funders/NewFunderPage.tsx'), 'NewFunderPage');
const FunderPage = page(() => import('../pages/funders/FunderPage.tsx'), 'FunderPage');
const SettingsPage = page(() => import('../pages/admin/SettingsPage.tsx'), 'SettingsPage');
const DisputesPage = page(() => import('../pages/admin/DisputesPage.tsx'), 'DisputesPage');
const DisputeDetailPage = page(() => import('../pages/admin/DisputeDetailPage.tsx'), 'DisputeDetailPage');
const MailboxPage = page(() => import('../pages/admin/MailboxPage.tsx'), 'MailboxPage');

const TermsOfUsePage = page(() => import('../pages/public/InfoPages.tsx'), 'TermsOfUsePage');
const PrivacyPolicyPage = page(() => import('../pages/public/InfoPages.tsx'), 'PrivacyPolicyPage');
const DisputeProcessPage = page(() => import('../pages/public/InfoPages.tsx'), 'DisputeProcessPage');
const ProPage = page(() => import('../pages/public/InfoPages.tsx'), 'ProPage');
const DevelopersPage = page(() => import('../pages/public/DevelopersPage.tsx'), 'DevelopersPage');
const DisputePage = page(() => import('../pages/public/DisputePage.tsx'), 'DisputePage');

// Pages worth fetching before they are shown: the one a reload or deep link opens (fetched while the
// session is restored) and the dashboard while the sign-in request is under way.
registerPreloadedRoutes([
  [PATHS.login, LoginPage],
  [PATHS.dashboard, DashboardPage],
  [PATHS.dashboardOld, DashboardPage],
  [PATHS.search, SearchPage],
  [PATHS.newMerchant, AddMerchantPage],
  [PATHS.merchant, MerchantPage],
  [PATHS.profile, ProfilePage],
  [PATHS.members, OurMembersPage],
  [PATHS.account, AccountPage],
  [PATHS.contribution, ContributionPage],
  [PATHS.screenings, ScreeningsPage],
  [PATHS.screening, ScreeningReportPage],
  [PATHS.merchantSubscriptions, MerchantSubscriptionsPage],
  [PATHS.merchantSubscriptionImports, MerchantSubscriptionsPage],
  [PATHS.merchantSubscriptionWebhookLogs, MerchantSubscriptionsPage],
  [PATHS.merchants, AdminMerchantsPage],
  [PATHS.funders, FundersPage],
  [PATHS.funder, FunderPage],
  [PATHS.mfaRegistration, MfaRegistrationPage],
  [PATHS.mfaVerification, MfaVerificationPage],
]);

const placeholders = (list: PlaceholderRoute[]) =>
  list.map(({ path, title, summary }) => (
    <Route key={path} path={path} element={<PlaceholderPage title={title} summary={summary} />} />
  ));

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route path={PATHS.login} element={<LoginPage />} />
        <Route path={PATHS.gateway} element={<LoginPage />} />
        <Route path={PATHS.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path={PATHS.passwordReset} element={<PasswordResetPage />} />
      </Route>

      <Route element={<MainLayout />}>
        {/* Public information pages and the dispute form: no sign-in needed. */}
        <Route path={PATHS.termsOfUse} element={<TermsOfUsePage />} />
        <Route path={PATHS.privacyPolicy} element={<PrivacyPolicyPage />} />
        <Route path={PATHS.disputeProcess} element={<DisputeProcessPage />} />
        <Route path={PATHS.pro} element={<ProPage />} />
        <Route path={PATHS.developers} element={<DevelopersPage />} />
        <Route path={PATHS.dispute} element={<DisputePage />} />
        <Route path={PATHS.notFound} element={<NotFoundPage />} />

        <Route element={<RequireSession />}>
          <Route path={PATHS.mfaRegistration} element={<MfaRegistrationPage />} />
          <Route path={PATHS.mfaVerification} element={<MfaVerificationPage />} />
          <Route path={PATHS.membership} element={<MembershipPage />} />
          <Route path={PATHS.agreeToTerms} element={<AgreeToTermsPage />} />
        </Route>

        <Route element={<RequireMember />}>
          <Route path={PATHS.dashboard} element={<DashboardPage withProIntroduction />} />
          <Route path={PATHS.dashboardOld} element={<DashboardPage withProIntroduction={false} />} />
          <Route path={PATHS.search} element={<SearchPage />} />
          <Route path={PATHS.newMerchant} element={<AddMerchantPage />} />
          <Route path={PATHS.merchant} element={<MerchantPage />} />
          <Route path={PATHS.profile} element={<ProfilePage />} />
          <Route path={PATHS.members} element={<OurMembersPage />} />
          <Route path={PATHS.analytics} element={<AnalyticsPage />} />
          <Route path={PATHS.brokers} element={<BrokersPage />} />
          <Route path={PATHS.broker} element={<BrokerPage />} />
          <Route path={PATHS.contribution} element={<ContributionPage />} />
          {/* PRO (issue 32): BASIC members see what screening does and how to get it, at the same address. */}
          <Route path={PATHS.screenings} element={<ScreeningsPage />} />
          <Route path={PATHS.screening} element={<ScreeningReportPage />} />
          {placeholders(MEMBER_PLACEHOLDERS)}

          <Route element={<RequireRole has={isAccountAdmin} />}>
            <Route path={PATHS.account} element={<AccountPage />} />
            <Route path={PATHS.newAccountMember} element={<MemberPage scope="account" mode="add" />} />
            <Route path={PATHS.accountMember} element={<MemberPage scope="account" mode="edit" />} />
          </Route>
          <Route element={<RequireMerchantSubscriptions unavailable={<SubscriptionsUnavailable />} />}>
            <Route path={PATHS.merchantSubscriptions} element={<MerchantSubscriptionsPage />} />
            <Route path={PATHS.merchantSubscriptionImports} element={<MerchantSubscriptionsPage />} />
            <Route path={PATHS.merchantSubscriptionWebhookLogs} element={<MerchantSubscriptionsPage />} />
          </Route>
          <Route element={<RequireRole has={isPlatformAdmin} />}>
            <Route path={PATHS.merchants} element={<AdminMerchantsPage />} />
            <Route path={PATHS.deletedMerchants} element={<AdminMerchantsPage />} />
            <Route path={PATHS.deletedMerchant} element={<DeletedMerchantPage />} />
            <Route path={PATHS.funders} element={<FundersPage />} />
            <Route path={PATHS.newFunder} element={<NewFunderPage />} />
            <Route path={PATHS.funder} element={<FunderPage />} />
            <Route path={PATHS.newFunderMember} element={<MemberPage scope="funder" mode="add" />} />
            <Route path={PATHS.funderMember} element={<MemberPage scope="funder" mode="edit" />} />
            <Route path={PATHS.settings} element={<SettingsPage />} />
            <Route path={PATHS.disputes} element={<DisputesPage />} />
            <Route path={PATHS.disputeDetail} element={<DisputeDetailPage />} />
            <Route path={PATHS.mailbox} element={<MailboxPage />} />
          </Route>
        </Route>
      </Route>

      <Route path={PATHS.logout} element={<LogoutPage />} />
      <Route path="*" element={<Navigate to={PATHS.dashboard} replace />} />
    </Routes>
  );
}
