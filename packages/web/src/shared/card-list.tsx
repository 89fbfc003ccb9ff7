import { SimpleGrid, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

interface CardListProps {
  label: string;
  /**
   * Where the table takes over (its `ScrollRegion` is `visibleFrom` the same): `sm` (48em) for
   * tables that fit a tablet, `lg` (75em) for those wider than one, whose cards sit side by side
   * between a phone and 75em rather than the table scrolling sideways.
   */
  tableFrom?: 'sm' | 'lg';
  children: ReactNode;
}

/** A wide table's cards, one item each, below the width at which the table fits. */
export function CardList({ label, tableFrom = 'sm', children }: CardListProps) {
  const list = {
    component: 'ul',
    p: 0,
    m: 0,
    hiddenFrom: tableFrom,
    'aria-label': label,
    style: { listStyle: 'none' },
  } as const;
  if (tableFrom === 'sm')
    return (
      <Stack gap="sm" {...list}>
        {children}
      </Stack>
    );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm" {...list}>
      {children}
    </SimpleGrid>
  );
}
