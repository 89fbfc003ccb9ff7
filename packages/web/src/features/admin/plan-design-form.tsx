import { Button, Group, List, NumberInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DEFAULT_PLAN_DESIGN, describeAssumptions, type PlanDesign } from '@ratelens/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch, type Control } from 'react-hook-form';
import { fieldError } from '../../shared/field-error.tsx';
import { FormAlert } from '../../shared/form-alert.tsx';
import { showServerFieldErrors } from '../../shared/server-field-errors.ts';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';
import { searchKeys } from '../search/search-queries.ts';
import { adminErrorMessage, savePlanDesign } from './admin-api.ts';
import {
  PLAN_LIMITS,
  checkPlanDesign,
  planDesignResolver,
  planFieldOf,
  planFormValues,
  type PlanDesignField,
  type PlanDesignFormValues,
} from './plan-design-values.ts';

export const PLAN_SAVED = 'The plan design was saved.';
export const AT_DEFAULTS = 'These are the 2026 defaults.';

function samePlan(a: PlanDesign, b: PlanDesign): boolean {
  return (
    a.deductible.single === b.deductible.single &&
    a.deductible.family === b.deductible.family &&
    a.outOfPocketMax.single === b.outOfPocketMax.single &&
    a.outOfPocketMax.family === b.outOfPocketMax.family &&
    a.coinsurance === b.coinsurance
  );
}

interface AmountInputProps {
  control: Control<PlanDesignFormValues, unknown, PlanDesign>;
  name: PlanDesignField;
  label: string;
  percent?: boolean;
}

function AmountInput({ control, name, label, percent = false }: AmountInputProps) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <NumberInput
          label={label}
          required
          name={field.name}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
          min={percent ? PLAN_LIMITS.minPercent : PLAN_LIMITS.minDollars}
          max={percent ? PLAN_LIMITS.maxPercent : PLAN_LIMITS.maxDollars}
          allowNegative={false}
          decimalScale={2}
          thousandSeparator={percent ? undefined : ','}
          clampBehavior="none"
          inputMode="decimal"
          description={percent ? "The member's share after the deductible, 0 to 100." : undefined}
          error={fieldError(fieldState.error)}
        />
      )}
    />
  );
}

/**
 * The plan out-of-pocket estimates assume: deductible and out-of-pocket maximum per tier, in
 * dollars, and the coinsurance in percent (stored as 0–1). Checked with core's PlanDesignSchema;
 * below the form, what the results would say to a single person who has spent $0.
 */
export function PlanDesignForm({ initial }: { initial: PlanDesign }) {
  const queryClient = useQueryClient();
  const form = useForm<PlanDesignFormValues, unknown, PlanDesign>({
    resolver: planDesignResolver,
    mode: 'onTouched',
    defaultValues: planFormValues(initial),
  });
  const checked = checkPlanDesign(useWatch({ control: form.control }));
  const atDefaults = checked.ok && samePlan(checked.plan, DEFAULT_PLAN_DESIGN);

  const save = useMutation({
    mutationFn: savePlanDesign,
    onSuccess: (saved) => {
      // The results screen reads the plan from this query: it shows the new one at once.
      queryClient.setQueryData(searchKeys.planDesign(), saved);
      form.reset(planFormValues(saved));
    },
    onError: (error) => showServerFieldErrors(error, form.setError, planFieldOf),
  });
  const { buttonRef, resultRef } = useSettledFocus(save.isPending);

  const resetToDefaults = () => {
    save.reset();
    const defaults = planFormValues(DEFAULT_PLAN_DESIGN);
    for (const [field, value] of Object.entries(defaults) as [PlanDesignField, number][]) {
      form.setValue(field, value, { shouldDirty: true, shouldValidate: true });
    }
  };

  const onSubmit = form.handleSubmit((plan) => save.mutate(plan));

  return (
    <Stack gap="xl">
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Plan design">
        <Stack gap="md">
          {save.isError && (
            <FormAlert ref={resultRef} tone="error">
              {adminErrorMessage(save.error)}
            </FormAlert>
          )}
          {save.isSuccess && !form.formState.isDirty && (
            <FormAlert ref={resultRef} tone="success">
              {PLAN_SAVED}
            </FormAlert>
          )}

          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
            <AmountInput
              control={form.control}
              name="deductibleSingle"
              label="Deductible, single ($)"
            />
            <AmountInput
              control={form.control}
              name="deductibleFamily"
              label="Deductible, family ($)"
            />
            <AmountInput
              control={form.control}
              name="outOfPocketSingle"
              label="Out-of-pocket maximum, single ($)"
            />
            <AmountInput
              control={form.control}
              name="outOfPocketFamily"
              label="Out-of-pocket maximum, family ($)"
            />
            <AmountInput
              control={form.control}
              name="coinsurancePercent"
              label="Coinsurance (%)"
              percent
            />
          </SimpleGrid>

          <Text size="sm" c="dimmed" role="status" aria-live="polite">
            {atDefaults ? AT_DEFAULTS : ''}
          </Text>

          <Group gap="sm">
            <Button ref={buttonRef} type="submit" loading={save.isPending}>
              Save
            </Button>
            <Button variant="default" onClick={resetToDefaults} disabled={save.isPending}>
              Reset to the 2026 defaults
            </Button>
          </Group>
        </Stack>
      </form>

      <Stack gap="xs" component="section" aria-labelledby="plan-preview">
        <Title order={2} id="plan-preview">
          Preview
        </Title>
        <Text size="sm">
          What the results would say to a single person who has spent $0 this year:
        </Text>
        {checked.ok ? (
          <List size="sm" spacing={4}>
            {describeAssumptions(1, 0, checked.plan).map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm" c="dimmed">
            The preview shows once every amount is valid.
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
