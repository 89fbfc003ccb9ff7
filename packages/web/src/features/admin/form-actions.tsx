import { Button, Group } from '@mantine/core';
import type { Ref } from 'react';

/**
 * The end of an admin form: Cancel, and the submit button, both held while the save runs.
 * `submitRef` is useSettledFocus's `buttonRef`: where a browser leaves the focus on the busy
 * button, the hook moves it from there to the form's error when the save is refused.
 */
export function FormActions({
  submitLabel,
  onCancel,
  pending,
  submitRef,
}: {
  submitLabel: string;
  onCancel: () => void;
  pending: boolean;
  submitRef: Ref<HTMLButtonElement>;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button ref={submitRef} type="submit" loading={pending}>
        {submitLabel}
      </Button>
    </Group>
  );
}
