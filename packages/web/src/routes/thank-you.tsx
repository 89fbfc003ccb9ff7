import { Group, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../features/auth/use-session.ts';
import { clearDonation } from '../features/donations/donation-session.ts';
import { clearCart } from '../features/subscriptions/cart.ts';
import { formatCents } from '../features/subscriptions/cart-pricing.ts';
import { Page } from '../shared/page.tsx';
import { ButtonLink } from '../shared/router-link.tsx';

/** What a successful payment hands to /thankYou. */
export interface ThankYouState {
  kind: 'subscription' | 'donation';
  amountCents: number;
  orderId: string;
}

function thankYouStateOf(state: unknown): ThankYouState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { kind, amountCents, orderId } = state as Record<string, unknown>;
  if (
    (kind === 'subscription' || kind === 'donation') &&
    typeof amountCents === 'number' &&
    typeof orderId === 'string'
  )
    return { kind, amountCents, orderId };
  return null;
}

/** Thank You (subscriptions-and-payments §2 "Thank You"): clears all cart and coupon data. */
export function ThankYouRoute() {
  const paid = thankYouStateOf(useLocation().state);
  const signedIn = useSession().token !== null;

  useEffect(() => {
    clearCart();
    clearDonation();
  }, []);

  return (
    <Page title="Thank you">
      <Stack gap="md">
        {paid && (
          <Text role="status">
            {paid.kind === 'donation'
              ? `Your donation of ${formatCents(paid.amountCents)} was received. It helps us fight the high cost of healthcare.`
              : paid.amountCents === 0
                ? 'Your order is complete, and your subscription is active. Nothing was charged.'
                : `Your payment of ${formatCents(paid.amountCents)} was received, and your subscription is active.`}
          </Text>
        )}
        {paid && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Order number: {paid.orderId}
          </Text>
        )}
        <Group>
          {signedIn && paid?.kind !== 'donation' && (
            <ButtonLink to="/profile">See your subscriptions</ButtonLink>
          )}
          <ButtonLink to="/" variant="default">
            Go to Home
          </ButtonLink>
        </Group>
      </Stack>
    </Page>
  );
}
