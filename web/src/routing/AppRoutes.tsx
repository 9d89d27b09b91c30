import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { MainLayout } from '../layout/MainLayout.tsx';
import { PublicLayout } from '../layout/PublicLayout.tsx';
import { LogoutPage } from '../pages/LogoutPage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { PlaceholderPage } from '../pages/PlaceholderPage.tsx';
import { SearchPage } from '../pages/SearchPage.tsx';
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
          {placeholders(MEMBER_PLACEHOLDERS)}

          <Route element={<RequireRole has={isAccountAdmin} />}>
            {placeholders(ACCOUNT_ADMIN_PLACEHOLDERS)}
          </Route>
          <Route element={<RequireMerchantSubscriptions />}>
            {placeholders(MERCHANT_SUBSCRIPTION_PLACEHOLDERS)}
          </Route>
          <Route element={<RequireRole has={isPlatformAdmin} />}>
            {placeholders(PLATFORM_ADMIN_PLACEHOLDERS)}
          </Route>
        </Route>
      </Route>

      <Route path={PATHS.logout} element={<LogoutPage />} />
      <Route path="*" element={<Navigate to={PATHS.dashboard} replace />} />
    </Routes>
  );
}
