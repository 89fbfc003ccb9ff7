import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { sendLogout } from '../features/auth/api-client.ts';
import { clearSession, readSession } from '../features/auth/session.ts';
import { clearCart } from '../features/subscriptions/cart.ts';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';

/** Sign out: tell the server (best effort), forget the session and the cart, go to /login. */
export function LogoutRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // StrictMode runs effects twice in development; the sign-out must happen once.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const session = readSession();
    clearSession();
    // The cart and coupon leftovers go with the session (search-and-accounts §3).
    clearCart();
    queryClient.clear();
    void sendLogout(session);
    void navigate('/login', { replace: true });
  }, [navigate, queryClient]);

  return (
    <Page title="Signing out">
      <PageLoader label="Signing you out..." />
    </Page>
  );
}
