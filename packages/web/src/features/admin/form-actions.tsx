import { Button, Group } from '@mantine/core';

/** The end of an admin form: Cancel, and the submit button, both held while the save runs. */
export function FormActions({
  submitLabel,
  onCancel,
  pending,
}: {
  submitLabel: string;
  onCancel: () => void;
  pending: boolean;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" loading={pending}>
        {submitLabel}
      </Button>
    </Group>
  );
}
