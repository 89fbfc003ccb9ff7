import { PAYMENT_MESSAGES, type Subscription } from '@ratelens/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { LoginArrival } from '../auth/guards.tsx';
import { useSession } from '../auth/use-session.ts';
import { errorMessage } from '../../shared/http.ts';
import { addToCart } from './cart.ts';
import { canBuy } from './subscriptions-api.ts';

/** What /checkout shows on arrival: 'Subscription is already added to the list' for a repeat. */
export interface CheckoutArrival {
  notice: string | null;
}

/**
 * What a tile's Checkout does (subscriptions-and-payments §2, §4 "Cart", "Checkout
 * eligibility"): a plan that can be paid in installments asks 'How do you want to pay?' first
 * (`asking`); without a session the visitor goes to /login with 'Please create account or sign in
 * to purchase.'; otherwise the server is asked whether the account may buy it ('You already have
 * this subscription.' if not), and the plan joins the cart unless it is there already.
 */
export function usePlanCheckout(stateId: number) {
  const session = useSession();
  const navigate = useNavigate();
  const [asking, setAsking] = useState<Subscription | null>(null);
  const [busyPlanId, setBusyPlanId] = useState<number | null>(null);
  const [message, setMessage] = useState<{ text: string; at: number } | null>(null);

  const proceed = async (plan: Subscription, installment: boolean) => {
    setAsking(null);
    setMessage(null);
    const userId = session.userID;
    if (session.token === null || userId === null) {
      const arrival: LoginArrival = { notice: PAYMENT_MESSAGES.signInToPurchase, tone: 'info' };
      await navigate('/login', { state: arrival });
      return;
    }
    // A custom offer was made to this account to be bought; the payment checks it again.
    if (plan.customOfferId === null) {
      setBusyPlanId(plan.subscriptionID);
      let allowed: boolean;
      try {
        allowed = await canBuy(userId, plan);
      } catch (error) {
        setMessage({ text: errorMessage(error), at: Date.now() });
        return;
      } finally {
        setBusyPlanId(null);
      }
      if (!allowed) {
        setMessage({ text: PAYMENT_MESSAGES.alreadyOwned, at: Date.now() });
        return;
      }
    }
    const added = addToCart(userId, {
      plan,
      installment,
      stateId: plan.accessType === 'State' && plan.customOfferId === null ? stateId : null,
    });
    const arrival: CheckoutArrival = {
      notice: added === 'duplicate' ? PAYMENT_MESSAGES.alreadyInCart : null,
    };
    await navigate('/checkout', { state: arrival });
  };

  return {
    onCheckout: (plan: Subscription) => {
      if (plan.installmentEligible) setAsking(plan);
      else void proceed(plan, false);
    },
    busyPlanId,
    message,
    asking,
    choosePayment: (plan: Subscription, installment: boolean) => void proceed(plan, installment),
    cancel: () => setAsking(null),
  };
}
