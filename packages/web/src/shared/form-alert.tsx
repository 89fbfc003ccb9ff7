import { Alert } from '@mantine/core';
import type { ReactNode, Ref } from 'react';

interface FormAlertProps {
  tone: 'error' | 'success' | 'info';
  children: ReactNode;
  /**
   * For a result that takes the keyboard focus when its request settles (useSettledFocus): the
   * alert can then be focused from script, though not reached with Tab.
   */
  ref?: Ref<HTMLDivElement>;
}

const COLORS = { error: 'red', success: 'teal', info: 'indigo' } as const;

/**
 * A message about a whole form or page. Errors interrupt (role="alert"); the others are
 * announced politely (role="status"); both are live regions for screen readers.
 */
export function FormAlert({ tone, children, ref }: FormAlertProps) {
  return (
    <Alert
      ref={ref}
      tabIndex={ref ? -1 : undefined}
      color={COLORS[tone]}
      variant="light"
      role={tone === 'error' ? 'alert' : 'status'}
      aria-live={tone === 'error' ? 'assertive' : 'polite'}
      // A long unbroken word (an e-mail address, a URL) wraps rather than being cut off.
      style={{ overflowWrap: 'anywhere' }}
    >
      {children}
    </Alert>
  );
}
