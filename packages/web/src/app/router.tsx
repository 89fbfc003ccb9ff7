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
import { PageLoader } from '../shared/page-loader.tsx';
import { AppLayout } from './app-layout.tsx';

/**
 * One route per screen of the spec built so far. Paths match case-insensitively (react-router's
 * default), as the spec's links mix cases. Screens of later releases fall to "Page not found".
 */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    // Shown while the screen a page is opened at is fetched (most are split out, `lazy`).
    hydrateFallbackElement: <PageLoader />,
    children: [
      { path: '/', element: <HomeRoute /> },
      {
        path: '/ooprates',
        // The results table, chart and report popup are for signed-in searchers only.
        lazy: () => import('../routes/oop-rates.tsx').then((m) => ({ Component: m.OopRatesRoute })),
      },
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
      // The administrators' screens: lazy, as nobody else ever opens them.
      {
        path: '/admin/feedback',
        lazy: () =>
          import('../routes/admin-feedback.tsx').then((m) => ({ Component: m.AdminFeedbackRoute })),
      },
      {
        path: '/admin/partners',
        lazy: () =>
          import('../routes/admin-partners.tsx').then((m) => ({ Component: m.AdminPartnersRoute })),
      },
      {
        path: '/admin/organisations',
        lazy: () =>
          import('../routes/admin-organisations.tsx').then((m) => ({
            Component: m.AdminOrganisationsRoute,
          })),
      },
      {
        path: '/admin/plan-design',
        lazy: () =>
          import('../routes/admin-plan-design.tsx').then((m) => ({
            Component: m.AdminPlanDesignRoute,
          })),
      },
      {
        path: '/admin/catalogue',
        lazy: () =>
          import('../routes/admin-catalogue.tsx').then((m) => ({
            Component: m.AdminCatalogueRoute,
          })),
      },
      {
        path: '/admin/files',
        lazy: () =>
          import('../routes/admin-files.tsx').then((m) => ({ Component: m.AdminFilesRoute })),
      },
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
      // The public pages of issue 6: lazy, as they share nothing with the account screens.
      {
        path: '/ourMission',
        lazy: () =>
          import('../routes/our-mission.tsx').then((m) => ({ Component: m.OurMissionRoute })),
      },
      {
        path: '/productandservices',
        lazy: () =>
          import('../routes/products-and-services.tsx').then((m) => ({
            Component: m.ProductsAndServicesRoute,
          })),
      },
      {
        // The spec gives no path for the use-cases page (subscriptions-and-payments §2).
        path: '/useCases',
        lazy: () => import('../routes/use-cases.tsx').then((m) => ({ Component: m.UseCasesRoute })),
      },
      {
        path: '/partner',
        lazy: () => import('../routes/partners.tsx').then((m) => ({ Component: m.PartnersRoute })),
      },
      {
        path: '/privacy-policy',
        lazy: () =>
          import('../routes/privacy-policy.tsx').then((m) => ({ Component: m.PrivacyPolicyRoute })),
      },
      {
        path: '/terms-condition',
        lazy: () =>
          import('../routes/terms-conditions.tsx').then((m) => ({
            Component: m.TermsConditionsRoute,
          })),
      },
      // Subscriptions and payments (issue 5): lazy, with the payment forms and the plan tiles.
      {
        path: '/subscription',
        lazy: () =>
          import('../routes/subscription.tsx').then((m) => ({ Component: m.SubscriptionRoute })),
      },
      {
        path: '/subscriptionview',
        lazy: () =>
          import('../routes/subscription-view.tsx').then((m) => ({
            Component: m.SubscriptionViewRoute,
          })),
      },
      {
        path: '/checkout',
        lazy: () => import('../routes/checkout.tsx').then((m) => ({ Component: m.CheckoutRoute })),
      },
      {
        path: '/thankYou',
        lazy: () => import('../routes/thank-you.tsx').then((m) => ({ Component: m.ThankYouRoute })),
      },
      {
        path: '/donation',
        lazy: () => import('../routes/donation.tsx').then((m) => ({ Component: m.DonationRoute })),
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
