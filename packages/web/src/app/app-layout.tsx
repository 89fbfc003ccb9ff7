import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router';
import { onSessionEnded } from '../features/auth/api-client.ts';
import { AppFooter } from './app-footer.tsx';
import { AppHeader } from './app-header.tsx';
import classes from './layout.module.css';

/** Header, the current screen, footer; and the /logout redirect when a session ends. */
export function AppLayout() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const shown = useRef(pathname);

  // A new screen takes the focus, so that a screen reader reads it and the next Tab is in it
  // (the link that led there may be gone). The first screen keeps the browser's own start, and a
  // change of query string alone (a filter, a page of a table) leaves the focus where it is.
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    main.current?.focus({ preventScroll: true });
  }, [pathname]);

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
      <main id="main" ref={main} tabIndex={-1} className={classes.main}>
        <Outlet />
      </main>
      <AppFooter />
      <ScrollRestoration />
    </div>
  );
}
