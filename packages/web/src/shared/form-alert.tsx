import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';

interface FormAlertProps {
  tone: 'error' | 'success' | 'info';
  children: ReactNode;
}

const COLORS = { error: 'red', success: 'teal', info: 'indigo' } as const;

/**
 * A message about a whole form or page. Errors interrupt (role="alert"); the others are
 * announced politely (role="status"); both are live regions for screen readers.
 */
export function FormAlert({ tone, children }: FormAlertProps) {
  return (
    <Alert
      color={COLORS[tone]}
      variant="light"
      role={tone === 'error' ? 'alert' : 'status'}
      aria-live={tone === 'error' ? 'assertive' : 'polite'}
    >
      {children}
    </Alert>
  );
}
