import { Button, Stack, Text } from '@mantine/core';

interface FreeOrderProps {
  /** Whether a coupon is what brought the order to $0.00. */
  couponApplied: boolean;
  pending: boolean;
  onComplete: () => void;
}

/**
 * The payment section of an order that costs nothing, today or later (a 100% coupon on items
 * paid once; ADR 0017): no card or account is asked for, and the order completes without one.
 */
export function FreeOrder({ couponApplied, pending, onComplete }: FreeOrderProps) {
  return (
    <Stack gap="md" align="flex-start">
      <Text>
        {couponApplied
          ? 'No payment is needed: the coupon covers the whole order. Nothing is charged.'
          : 'No payment is needed for this order. Nothing is charged.'}
      </Text>
      <Text size="sm" c="dimmed">
        With no payment method kept, these subscriptions do not renew by themselves.
      </Text>
      <Button size="md" onClick={onComplete} loading={pending} disabled={pending}>
        Complete Order
      </Button>
    </Stack>
  );
}
