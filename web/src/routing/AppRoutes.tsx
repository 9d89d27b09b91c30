import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { MainLayout } from '../layout/MainLayout.tsx';
import { PublicLayout } from '../layout/PublicLayout.tsx';
import { LogoutPage } from '../pages/LogoutPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { PlaceholderPage } from '../pages/PlaceholderPage.tsx';
import {
  isAccountAdmin,
  isPlatformAdmin,
  RequireMember,
  RequireMerchantSubscriptions,
  RequireRole,
  RequireSession,
} from './guards.tsx';
import { PATHS } from './paths.ts';
import {
  ACCOUNT_ADMIN_PLACEHOLDERS,
  MEMBER_PLACEHOLDERS,
  MERCHANT_SUBSCRIPTION_PLACEHOLDERS,
  PLATFORM_ADMIN_PLACEHOLDERS,
  type PlaceholderRoute,
  PUBLIC_FORM_PLACEHOLDERS,
  PUBLIC_PAGE_PLACEHOLDERS,
  SESSION_STEP_PLACEHOLDERS,
} from './placeholder-routes.ts';

const LoginPage = lazy(() => import('../pages/login/LoginPage.tsx').then((m) => ({ default: m.LoginPage })));
const DashboardPage = lazy(() =>
  import('../pages/dashboard/DashboardPage.tsx').then((m) => ({ default: m.DashboardPage })),
);

const SearchPage = lazy(() =>
  import('../pages/search/SearchPage.tsx').then((m) => ({ default: m.SearchPage })),
);
const AddMerchantPage = lazy(() =>
  import('../pages/merchant/AddMerchantPage.tsx').then((m) => ({ default: m.AddMerchantPage })),
);
const MerchantPage = lazy(() =>
  import('../pages/merchant/MerchantPage.tsx').then((m) => ({ default: m.MerchantPage })),
);
const AdminMerchantsPage = lazy(() =>
  import('../pages/admin-merchants/AdminMerchantsPage.tsx').then((m) => ({ default: m.AdminMerchantsPage })),
);
const DeletedMerchantPage = lazy(() =>
  import('../pages/admin-merchants/DeletedMerchantPage.tsx').then((m) => ({
    default: m.DeletedMerchantPage,
  })),
);

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
        {placeholders(PUBLIC_FORM_PLACEHOLDERS)}
      </Route>

      <Route element={<MainLayout />}>
        {placeholders(PUBLIC_PAGE_PLACEHOLDERS)}
        <Route path={PATHS.notFound} element={<NotFoundPage />} />

        <Route element={<RequireSession />}>{placeholders(SESSION_STEP_PLACEHOLDERS)}</Route>

        <Route element={<RequireMember />}>
          <Route path={PATHS.dashboard} element={<DashboardPage withProIntroduction />} />
          <Route path={PATHS.dashboardOld} element={<DashboardPage withProIntroduction={false} />} />
          <Route path={PATHS.search} element={<SearchPage />} />
          <Route path={PATHS.newMerchant} element={<AddMerchantPage />} />
          <Route path={PATHS.merchant} element={<MerchantPage />} />
          {placeholders(MEMBER_PLACEHOLDERS)}

          <Route element={<RequireRole has={isAccountAdmin} />}>
            {placeholders(ACCOUNT_ADMIN_PLACEHOLDERS)}
          </Route>
          <Route element={<RequireMerchantSubscriptions />}>
            {placeholders(MERCHANT_SUBSCRIPTION_PLACEHOLDERS)}
          </Route>
          <Route element={<RequireRole has={isPlatformAdmin} />}>
            <Route path={PATHS.merchants} element={<AdminMerchantsPage />} />
            <Route path={PATHS.deletedMerchants} element={<AdminMerchantsPage />} />
            <Route path={PATHS.deletedMerchant} element={<DeletedMerchantPage />} />
            {placeholders(PLATFORM_ADMIN_PLACEHOLDERS)}
          </Route>
        </Route>
      </Route>

      <Route path={PATHS.logout} element={<LogoutPage />} />
      <Route path="*" element={<Navigate to={PATHS.dashboard} replace />} />
    </Routes>
  );
}
