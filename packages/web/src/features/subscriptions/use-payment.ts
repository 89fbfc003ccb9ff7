import type { PaymentResponse } from '@ratelens/core';
import { useRef, useState } from 'react';
import { PaymentAttempts } from './payment-attempts.ts';
import type { PaymentOutcome } from './payment-call.ts';
import type { PaymentDetails } from './payment-values.ts';

/** §9: after a failed payment the page scrolls to the top this long after the answer. */
export const FAILURE_SCROLL_DELAY_MS = 800;

interface UsePaymentOptions<Details> {
  /** The request this attempt sends: its body (the attempt's fingerprint) and how to send it. */
  prepare: (details: Details) => {
    body: unknown;
    send: (idempotencyKey: string) => Promise<PaymentOutcome>;
  };
  onPaid: (response: PaymentResponse) => void;
  /** After a failure, with the form enabled again. */
  onFailed?: () => void;
}

/** A failed payment's message; `attempt` tells two failures with the same words apart. */
export interface PaymentFailure {
  message: string;
  attempt: number;
}

/**
 * One payment at a time (subscriptions-and-payments §4 "Payment"): idle → in progress → paid
 * (handed to `onPaid`) or failed (a message the page shows at the top, scrolling there after
 * 800 ms). A second press while one is under way does nothing, and every attempt carries its
 * Idempotency-Key (see PaymentAttempts).
 */
export function usePayment<Details = PaymentDetails>({
  prepare,
  onPaid,
  onFailed,
}: UsePaymentOptions<Details>) {
  const [attempts] = useState(() => new PaymentAttempts());
  const inFlight = useRef(false);
  const failures = useRef(0);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<PaymentFailure | null>(null);

  const pay = async (details: Details) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    setFailure(null);
    try {
      const { body, send } = prepare(details);
      const outcome = await send(attempts.keyFor(JSON.stringify(body)));
      attempts.finish(outcome.ok || outcome.settled);
      if (outcome.ok) {
        onPaid(outcome.response);
      } else {
        failures.current += 1;
        setFailure({ message: outcome.message, attempt: failures.current });
        onFailed?.();
      }
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  };

  return { pending, failure, pay: (details: Details) => void pay(details) };
}
