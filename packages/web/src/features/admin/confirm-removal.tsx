import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormAlert } from '../../shared/form-alert.tsx';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';

/** The admin screens' "are you sure" dialog before removing something. */
export function ConfirmRemoval({
  opened,
  title,
  question,
  confirmLabel,
  error,
  pending,
  onConfirm,
  onCancel,
}: {
  opened: boolean;
  title: string;
  question: ReactNode;
  confirmLabel: string;
  error: string | null;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  // A refusal keeps the dialog open, and its error takes the focus. The confirm button is not
  // given as the fallback: a removal that succeeds closes the dialog, and Mantine's Modal gives
  // the focus back to what opened it only if nothing in the closing dialog has taken it.
  const { resultRef } = useSettledFocus(pending);
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Stack gap="md">
        <Text style={{ overflowWrap: 'anywhere' }}>{question}</Text>
        {error !== null && (
          <FormAlert ref={resultRef} tone="error">
            {error}
          </FormAlert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
