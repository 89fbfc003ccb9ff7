import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/** Below 48em (a 375 px phone) a wide table shows as a list of cards, one item each. */
export function CardList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack
      component="ul"
      gap="sm"
      p={0}
      m={0}
      hiddenFrom="sm"
      aria-label={label}
      style={{ listStyle: 'none' }}
    >
      {children}
    </Stack>
  );
}
