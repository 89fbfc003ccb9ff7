import { Group, Stack, Text, Title } from '@mantine/core';
import { PAYMENT_MESSAGES, costsNothing, type Subscription } from '@ratelens/core';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { RequireToken } from '../features/auth/guards.tsx';
import { useSession } from '../features/auth/use-session.ts';
import {
  clearCart,
  removeFromCart,
  setCartCoupon,
  useCart,
  type CartLine,
} from '../features/subscriptions/cart.ts';
import { hasAnnualItem, priceChoices } from '../features/subscriptions/cart-pricing.ts';
import { CouponForm } from '../features/subscriptions/coupon-form.tsx';
import { FreeOrder } from '../features/subscriptions/free-order.tsx';
import { OrderTable } from '../features/subscriptions/order-table.tsx';
import { sendPayment } from '../features/subscriptions/payment-call.ts';
import { PaymentForm } from '../features/subscriptions/payment-form.tsx';
import type { PaymentDetails } from '../features/subscriptions/payment-values.ts';
import { DEFAULT_STATE } from '../features/subscriptions/state-select.tsx';
import { getPlan, subscriptionKeys } from '../features/subscriptions/subscriptions-api.ts';
import { FAILURE_SCROLL_DELAY_MS, usePayment } from '../features/subscriptions/use-payment.ts';
import type { CheckoutArrival } from '../features/subscriptions/use-plan-checkout.ts';
import { AttentionAlert } from '../shared/attention-alert.tsx';
import { FormAlert } from '../shared/form-alert.tsx';
import { Page } from '../shared/page.tsx';
import { ButtonLink } from '../shared/router-link.tsx';
import type { ThankYouState } from './thank-you.tsx';

/** Checkout (subscriptions-and-payments §2 "Checkout", §4 "Cart", "Payment", §8). */
export function CheckoutRoute() {
  return (
    <RequireToken>
      <Page title="Checkout" size="lg">
        <Checkout />
      </Page>
    </RequireToken>
  );
}

/**
 * The cart's plans as the catalogue prices them now: a cart can wait in the browser for days
 * while hospitals publish files, so each plan is read again (a custom offer keeps its price).
 * Until the answer arrives the stored tile stands in.
 */
function useCurrentPlans(lines: CartLine[]): Subscription[] {
  const current = useQueries({
    queries: lines.map((line) => {
      const stateId = line.stateId ?? DEFAULT_STATE.stateID;
      const id = line.plan.subscriptionID;
      return {
        queryKey: subscriptionKeys.plan(stateId, id),
        queryFn: ({ signal }: { signal: AbortSignal }) => getPlan(stateId, id, signal),
        enabled: line.plan.customOfferId === null,
        retry: false,
      };
    }),
  });
  return lines.map((line, index) =>
    line.plan.customOfferId === null ? (current[index]?.data ?? line.plan) : line.plan,
  );
}

/** 'Subscription is already added to the list' when the tile's plan was in the cart already. */
function noticeOf(state: unknown): string | null {
  const notice = (state as Partial<CheckoutArrival> | null)?.notice;
  return typeof notice === 'string' ? notice : null;
}

/**
 * The arrival's notice, shown once: the history entry keeps its state through a reload, so the
 * notice is taken out of it as soon as it is read, or every reload of /checkout would say again
 * that the plan was added twice.
 */
function useArrivalNotice(): string | null {
  const location = useLocation();
  const navigate = useNavigate();
  const [notice] = useState(() => noticeOf(location.state));
  const arrived = noticeOf(location.state) !== null;
  useEffect(() => {
    if (arrived) void navigate(location, { replace: true, state: null });
  }, [arrived, location, navigate]);
  return notice;
}

function Checkout() {
  const session = useSession();
  const userId = session.userID ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const cart = useCart();
  const notice = useArrivalNotice();
  const orderHeading = useRef<HTMLHeadingElement>(null);

  const plans = useCurrentPlans(cart.lines);
  const choices = cart.lines.map((line, index) => ({
    plan: plans[index] ?? line.plan,
    installment: line.installment,
  }));
  const annual = hasAnnualItem(choices);
  const coupon = annual ? cart.coupon : null;
  const priced = priceChoices(choices, coupon?.couponDiscountPerc ?? 0);

  // A cart that costs nothing, today or later, completes without a payment (ADR 0017).
  const free = costsNothing(priced);

  const payment = usePayment<PaymentDetails | null>({
    prepare: (details) => {
      const cart = {
        // What to buy, never its price: the server prices the order (issue 5 point 3).
        items: choices.map(({ plan, installment }) => ({
          subscriptionID: plan.subscriptionID,
          state: plan.stateCode ?? '',
          IsInstalmentPayment: installment,
          customOfferId: plan.customOfferId,
          userID: userId,
        })),
        couponCode: coupon?.couponCode ?? null,
        // The TOTAL shown: a different server price refuses the payment instead of charging it.
        expectedAmountCents: priced.dueTodayCents,
      };
      const body =
        details === null
          ? cart
          : {
              ...cart,
              paymentDetails: details.paymentDetails,
              billingAddress: details.billingAddress,
            };
      const path =
        details === null
          ? '/api/Payment/FreeOrder'
          : details.method === 'card'
            ? '/api/Payment/CardPayment'
            : '/api/Payment/CeckPayment';
      return {
        body,
        send: (idempotencyKey: string) =>
          sendPayment({
            path,
            body,
            idempotencyKey,
            authenticated: true,
            fallback: PAYMENT_MESSAGES.paymentFailed,
          }),
      };
    },
    onPaid: (response) => {
      clearCart();
      void queryClient.invalidateQueries();
      const state: ThankYouState = {
        kind: 'subscription',
        amountCents: response.amountCents,
        orderId: response.orderId,
      };
      void navigate('/thankYou', { replace: true, state });
    },
    // A refusal may come from a price that changed since the cart was filled: read it again.
    onFailed: () => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
  });

  const empty = choices.length === 0;
  return (
    <Stack gap="xl">
      {payment.failure !== null && (
        <AttentionAlert key={payment.failure.attempt} delayMs={FAILURE_SCROLL_DELAY_MS} scrollToTop>
          {payment.failure.message}
        </AttentionAlert>
      )}
      {notice !== null && <FormAlert tone="info">{notice}</FormAlert>}

      <Stack gap="md" component="section" aria-labelledby="order-heading">
        {/* Where the keyboard goes when a Remove button takes itself away with its item. */}
        <Title order={2} size="h3" id="order-heading" ref={orderHeading} tabIndex={-1}>
          Your order
        </Title>
        {empty ? (
          <Text>Your cart is empty. Choose a subscription to buy.</Text>
        ) : (
          <OrderTable
            choices={choices}
            priced={priced}
            coupon={coupon}
            onRemove={(key) => {
              removeFromCart(userId, key);
              orderHeading.current?.focus();
            }}
            disabled={payment.pending}
          />
        )}
        <Group>
          <ButtonLink to="/subscription" variant="default">
            Add More
          </ButtonLink>
        </Group>
        {!empty && (
          <CouponForm
            coupon={coupon}
            hasAnnualItem={annual}
            onChange={(next) => setCartCoupon(userId, next)}
            disabled={payment.pending}
          />
        )}
      </Stack>

      {!empty && (
        <Stack gap="md" component="section" aria-labelledby="payment-heading">
          <Title order={2} size="h3" id="payment-heading">
            Payment
          </Title>
          {free ? (
            <FreeOrder
              couponApplied={coupon !== null}
              pending={payment.pending}
              onComplete={() => payment.pay(null)}
            />
          ) : (
            <PaymentForm
              defaultEmail={session.email ?? ''}
              ready
              pending={payment.pending}
              onPay={payment.pay}
            />
          )}
        </Stack>
      )}
    </Stack>
  );
}
