import { Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import type { CustomValues } from './saved-search.ts';

export const FAMILY_STATUS_MESSAGES = {
  livesRequired: 'Please choose Single or Family.',
  ytdRequired: 'Please enter your YTD medical spend.',
  ytdDigits: 'YTD medical spend must be digits only (whole dollars).',
} as const;

interface FormValues {
  lives: '' | '1' | '2';
  accumulator: string;
}

interface FamilyStatusModalProps {
  opened: boolean;
  onClose: () => void;
  /** The values of the last custom search, to start from. */
  initial: CustomValues | null;
  onSubmit: (values: CustomValues) => void;
}

const toForm = (values: CustomValues | null): FormValues => ({
  lives: values ? (String(values.lives) as '1' | '2') : '',
  accumulator: values ? String(values.accumulator) : '',
});

/**
 * The family-status and year-to-date spend popup (§2 "Home", "/ooprates"; §5 "Other rules": YTD
 * spend digits only and present, family status 1 or 2). Its backdrop is static: a click beside it
 * does not close it, the close button and Escape do.
 */
export function FamilyStatusModal({ opened, onClose, initial, onSubmit }: FamilyStatusModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Your coverage"
      closeOnClickOutside={false}
      centered
    >
      {/* Mounted at each opening, so the form starts from `initial` every time. */}
      <FamilyStatusForm initial={initial} onSubmit={onSubmit} />
    </Modal>
  );
}

function FamilyStatusForm({
  initial,
  onSubmit,
}: Pick<FamilyStatusModalProps, 'initial' | 'onSubmit'>) {
  const form = useForm<FormValues>({ defaultValues: toForm(initial) });
  const { errors } = form.formState;

  const submit = form.handleSubmit((values) => {
    onSubmit({ lives: values.lives === '2' ? 2 : 1, accumulator: Number(values.accumulator) });
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Text size="sm">
          We use these to estimate what you would pay out of pocket at each hospital.
        </Text>
        <Controller
          control={form.control}
          name="lives"
          rules={{ required: FAMILY_STATUS_MESSAGES.livesRequired }}
          render={({ field }) => (
            <Radio.Group
              label="Family status"
              withAsterisk
              value={field.value}
              onChange={(value) => field.onChange(value)}
              error={errors.lives?.message}
            >
              <Group gap="lg" mt={4}>
                {/* The form's focus on a missing choice lands here (react-hook-form's ref). */}
                <Radio value="1" label="Single" onBlur={field.onBlur} ref={field.ref} />
                <Radio value="2" label="Family" onBlur={field.onBlur} />
              </Group>
            </Radio.Group>
          )}
        />
        <TextInput
          label="YTD medical spend ($)"
          description="What you have spent on medical care so far this year, in whole dollars."
          inputMode="numeric"
          autoComplete="off"
          required
          maxLength={9}
          {...form.register('accumulator', {
            required: FAMILY_STATUS_MESSAGES.ytdRequired,
            validate: (value) => /^\d+$/.test(value.trim()) || FAMILY_STATUS_MESSAGES.ytdDigits,
          })}
          error={errors.accumulator?.message}
        />
        <Group justify="flex-end">
          <Button type="submit">Get Rates</Button>
        </Group>
      </Stack>
    </form>
  );
}
