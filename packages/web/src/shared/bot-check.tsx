import 'altcha';
import { Text } from '@mantine/core';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';

/** Where the server hands out ALTCHA proof-of-work challenges. */
export const CHALLENGE_URL = '/api/Captcha/challenge';

const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 30_000;

export interface BotCheckHandle {
  /** Forgets the used payload and solves a fresh challenge: a payload is good for one submit. */
  reset: () => void;
}

interface BotCheckProps {
  /** The solved payload, or null while there is none to send. */
  onPayload: (payload: string | null) => void;
  ref?: Ref<BotCheckHandle>;
}

type WidgetElement = HTMLElement & AltchaWidgetMethods;
type Status = 'checking' | 'verified' | 'retrying';

const STATUS_TEXT: Record<Status, string> = {
  checking: 'Running an automatic security check…',
  verified: 'Security check complete.',
  retrying: 'The automatic security check did not finish. Trying again…',
};

/**
 * The invisible bot check (subscriptions-and-payments §1, §4): the ALTCHA widget solves a
 * proof-of-work challenge on load, out of sight, and runs again silently when it fails. Only a
 * one-line status shows, so nobody wonders why the submit button is still disabled.
 */
export function BotCheck({ onPayload, ref }: BotCheckProps) {
  const widgetRef = useRef<WidgetElement>(null);
  const onPayloadRef = useRef(onPayload);
  const [status, setStatus] = useState<Status>('checking');

  useEffect(() => {
    onPayloadRef.current = onPayload;
  });

  useEffect(() => {
    const widget = widgetRef.current;
    if (!widget) return;
    let retryTimer: number | undefined;
    let retryDelay = FIRST_RETRY_MS;

    const onStateChange = (event: Event) => {
      const { state, payload } = (event as AltchaStateChangeEvent).detail;
      if (state === 'verified' && payload) {
        retryDelay = FIRST_RETRY_MS;
        setStatus('verified');
        onPayloadRef.current(payload);
        return;
      }
      onPayloadRef.current(null);
      if (state === 'error') {
        // Retried silently, backing off, for as long as the page is open.
        setStatus('retrying');
        window.clearTimeout(retryTimer);
        retryTimer = window.setTimeout(() => {
          widget.reset();
          void widget.verify();
        }, retryDelay);
        retryDelay = Math.min(retryDelay * 2, MAX_RETRY_MS);
      } else if (state === 'verifying') {
        setStatus((current) => (current === 'retrying' ? current : 'checking'));
      }
      // 'expired': the widget fetches and solves a new challenge by itself.
    };

    widget.addEventListener('statechange', onStateChange);
    return () => {
      widget.removeEventListener('statechange', onStateChange);
      window.clearTimeout(retryTimer);
    };
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      reset() {
        onPayloadRef.current(null);
        setStatus('checking');
        const widget = widgetRef.current;
        if (!widget) return;
        widget.reset();
        void widget.verify();
      },
    }),
    [],
  );

  return (
    <>
      <div hidden>
        <altcha-widget
          ref={widgetRef}
          challengeurl={CHALLENGE_URL}
          auto="onload"
          hidefooter
          hidelogo
        />
      </div>
      <Text size="xs" c="dimmed" role="status" aria-live="polite">
        {STATUS_TEXT[status]}
      </Text>
    </>
  );
}
