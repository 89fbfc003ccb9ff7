import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import {
  HospitalClassificationSchema,
  type HospitalClassification,
  type HospitalDetail,
  type HospitalLabels,
} from '@ratelens/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { fieldError } from '../../shared/field-error.tsx';
import { FormAlert } from '../../shared/form-alert.tsx';
import { showServerFieldErrors } from '../../shared/server-field-errors.ts';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';
import { inventoryKeys } from '../inventory/inventory-queries.ts';
import { adminErrorMessage, classifyHospital } from './admin-api.ts';

export const LABELS_SAVED = "The hospital's labels were saved.";

/** What the inputs hold: text, '' for no label (the schema's input also admits null). */
interface LabelValues {
  hospitalType: string | null;
  healthsystemType: string | null;
}
const FIELDS = ['hospitalType', 'healthsystemType'] as const;

const valuesOf = (labels: HospitalLabels): LabelValues => ({
  hospitalType: labels.hospitalType ?? '',
  healthsystemType: labels.healthsystemType ?? '',
});

/**
 * An administrator's form for what CMS files do not say: the hospital's type and health system,
 * shown as HospitalType and healthsystemType in rate search results. Checked with core's
 * HospitalClassificationSchema (at most 60 characters; empty clears the label). The server still
 * refuses anyone but an administrator.
 */
export function HospitalLabelsForm({ hospital }: { hospital: HospitalDetail }) {
  const queryClient = useQueryClient();
  const form = useForm<LabelValues, unknown, HospitalClassification>({
    resolver: zodResolver(HospitalClassificationSchema),
    mode: 'onTouched',
    defaultValues: valuesOf(hospital),
  });
  const { errors, isDirty } = form.formState;

  const save = useMutation({
    mutationFn: (labels: HospitalClassification) => classifyHospital(hospital.hospitalID, labels),
    onSuccess: (saved) => {
      // The page above the form shows the labels from the same query.
      queryClient.setQueryData<HospitalDetail>(
        inventoryKeys.hospital(hospital.hospitalID),
        (old) => (old ? { ...old, ...saved } : old),
      );
      form.reset(valuesOf(saved));
    },
    onError: (error) =>
      showServerFieldErrors(error, form.setError, (field) =>
        FIELDS.find((candidate) => candidate === field),
      ),
  });
  const { buttonRef, resultRef } = useSettledFocus(save.isPending);
  const onSubmit = form.handleSubmit((labels) => save.mutate(labels));

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      aria-labelledby="hospital-labels-title"
    >
      <Stack gap="md" maw={480}>
        <Title order={2} id="hospital-labels-title">
          Labels (administrators)
        </Title>
        {save.isError && (
          <FormAlert ref={resultRef} tone="error">
            {adminErrorMessage(save.error)}
          </FormAlert>
        )}
        {save.isSuccess && !isDirty && (
          <FormAlert ref={resultRef} tone="success">
            {LABELS_SAVED}
          </FormAlert>
        )}
        <TextInput
          label="Hospital type"
          description="For example Critical Access Hospitals. Empty clears it."
          maxLength={60}
          {...form.register('hospitalType')}
          error={fieldError(errors.hospitalType)}
        />
        <TextInput
          label="Health system"
          description="The system the hospital belongs to, or Independent. Empty clears it."
          maxLength={60}
          {...form.register('healthsystemType')}
          error={fieldError(errors.healthsystemType)}
        />
        <Group>
          <Button ref={buttonRef} type="submit" loading={save.isPending} disabled={!isDirty}>
            Save labels
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
