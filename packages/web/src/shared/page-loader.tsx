import { Group, Loader, Text } from '@mantine/core';

/** The spec's 'Loading...' state, announced to screen readers. */
export function PageLoader({ label = 'Loading...' }: { label?: string }) {
  return (
    <Group gap="sm" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden="true" />
      <Text>{label}</Text>
    </Group>
  );
}
