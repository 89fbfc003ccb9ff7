import { useEffect, useRef, type ReactNode } from 'react';
import { FormAlert } from './form-alert.tsx';

interface AttentionAlertProps {
  children: ReactNode;
  /** Wait this long before moving focus (a failed payment waits 800 ms, subscriptions-and-payments §9). */
  delayMs?: number;
  /** Scroll the page to the top first, as after a failed payment (§4 "Payment"). */
  scrollToTop?: boolean;
}

/**
 * An error shown away from where the person acted (above tiles, at the top of a long form). It is
 * announced as an alert and, once shown, takes the keyboard focus, which also brings it into view.
 * Give it a new `key` to do that again for a repeated message.
 */
export function AttentionAlert({
  children,
  delayMs = 0,
  scrollToTop = false,
}: AttentionAlertProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (scrollToTop) window.scrollTo({ top: 0, behavior: 'smooth' });
      ref.current?.focus({ preventScroll: scrollToTop });
    }, delayMs);
    return () => window.clearTimeout(timer);
  }, [delayMs, scrollToTop]);

  return (
    <div ref={ref} tabIndex={-1} style={{ outline: 'none' }}>
      <FormAlert tone="error">{children}</FormAlert>
    </div>
  );
}
