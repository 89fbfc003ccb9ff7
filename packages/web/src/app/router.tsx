import { createBrowserRouter, type RouteObject } from 'react-router';
import { ConfirmEmailRoute } from '../routes/confirm-email.tsx';
import { HomeRoute } from '../routes/home.tsx';
import { LoginRoute } from '../routes/login.tsx';
import { LogoutRoute } from '../routes/logout.tsx';
import { NotFoundRoute } from '../routes/not-found.tsx';
import { ProfileRoute } from '../routes/profile.tsx';
import { ResetPasswordRoute } from '../routes/reset-password.tsx';
import { RouteError } from '../routes/route-error.tsx';
import { UserListRoute } from '../routes/user-list.tsx';
import { VerifyEmailRoute } from '../routes/verify-email.tsx';
import { AppLayout } from './app-layout.tsx';

/**
 * One route per screen of the spec built so far. Paths match case-insensitively (react-router's
 * default), as the spec's links mix cases. Screens of later releases fall to "Page not found".
 */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <HomeRoute /> },
      { path: '/login', element: <LoginRoute /> },
      {
        path: '/registration',
        // The screens with the bot check load the ALTCHA widget (and its workers) on demand.
        lazy: () =>
          import('../routes/registration.tsx').then((m) => ({ Component: m.RegistrationRoute })),
      },
      { path: '/logout', element: <LogoutRoute /> },
      {
        path: '/forgotPassword',
        lazy: () =>
          import('../routes/forgot-password.tsx').then((m) => ({
            Component: m.ForgotPasswordRoute,
          })),
      },
      { path: '/resetPassword', element: <ResetPasswordRoute /> },
      { path: '/verifyEmail', element: <VerifyEmailRoute /> },
      { path: '/confirmEmail', element: <ConfirmEmailRoute /> },
      { path: '/profile', element: <ProfileRoute /> },
      { path: '/userList', element: <UserListRoute /> },
      {
        path: '/inventoryList',
        // The selects and the wide table weigh ~80 kB that the account screens do not need.
        lazy: () =>
          import('../routes/inventory-list.tsx').then((m) => ({ Component: m.InventoryListRoute })),
      },
      {
        path: '/inventoryList/:hospitalId',
        lazy: () =>
          import('../routes/hospital-detail.tsx').then((m) => ({
            Component: m.HospitalDetailRoute,
          })),
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
