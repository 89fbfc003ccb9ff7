import { Button, Group, type MantineSpacing } from '@mantine/core';
import { FormAlert } from './form-alert.tsx';

/** What a field says of its list of options when it could not be loaded. */
export const NOT_LOADED = {
  states: 'The states could not be loaded.',
  msas: 'The metro areas could not be loaded.',
  hospitals: 'The hospitals could not be loaded.',
  billingClasses: 'The billing classes could not be loaded.',
} as const;

/** A list of a form's options that failed to load: what its field says, and how to ask again. */
export interface FailedList {
  message: string;
  refetch: () => unknown;
}

/** The lists of `entries` that failed: whether it failed, its query, what its field says. */
export function failedLists(
  entries: readonly (readonly [boolean, { refetch: () => unknown }, string])[],
): FailedList[] {
  return entries
    .filter(([failed]) => failed)
    .map(([, query, message]) => ({ message, refetch: () => query.refetch() }));
}

/**
 * Said as an alert when lists of options could not be loaded: the error under a field alone is
 * not announced, and a field without options leaves no way on but to load them again.
 */
export function ListsNotLoaded({
  lists,
  mt,
}: {
  lists: readonly FailedList[];
  /** Space above it, where it follows fields in a form rather than in a stack. */
  mt?: MantineSpacing;
}) {
  if (lists.length === 0) return null;
  return (
    <Group gap="sm" mt={mt}>
      <FormAlert tone="error">
        {lists.map((list) => (
          <span key={list.message} style={{ display: 'block' }}>
            {list.message}
          </span>
        ))}
      </FormAlert>
      <Button variant="default" onClick={() => lists.forEach((list) => void list.refetch())}>
        Try again
      </Button>
    </Group>
  );
}
