import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useNavigate } from 'react-router';
import { onSessionEnded } from '../features/auth/api-client.ts';
import { AppFooter } from './app-footer.tsx';
import { AppHeader } from './app-header.tsx';
import classes from './layout.module.css';

/** Header, the current screen, footer; and the /logout redirect when a session ends. */
export function AppLayout() {
  const navigate = useNavigate();

  useEffect(
    () =>
      onSessionEnded(() => {
        void navigate('/logout', { replace: true });
      }),
    [navigate],
  );

  return (
    <div className={classes.shell}>
      <a href="#main" className={classes.skipLink}>
        Skip to main content
      </a>
      <AppHeader />
      <main id="main" tabIndex={-1} className={classes.main}>
        <Outlet />
      </main>
      <AppFooter />
      <ScrollRestoration />
    </div>
  );
}
