import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A label and its figure on one line, the figure to the right: a table's cell on a phone card,
 * where the column's header cannot be seen.
 */
export function LabelledFigure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right">
        {children}
      </Text>
    </Group>
  );
}
