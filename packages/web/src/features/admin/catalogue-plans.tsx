import {
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import {
  ACCESS_TYPES,
  SUBSCRIPTION_TYPES,
  centsToDollars,
  formatUsd,
  type CataloguePlan,
  type PlanInput,
} from '@ratelens/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { fieldError } from '../../shared/field-error.tsx';
import { FormAlert } from '../../shared/form-alert.tsx';
import { showServerFieldErrors } from '../../shared/server-field-errors.ts';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';
import { PageLoader } from '../../shared/page-loader.tsx';
import { adminErrorMessage } from './admin-api.ts';
import { catalogueKeys, listPlans, savePlan } from './catalogue-api.ts';
import { CatalogueTable, type CatalogueColumn } from './catalogue-table.tsx';
import {
  NEW_PLAN,
  checkPlan,
  planFieldOf,
  planFormValues,
  resolverOf,
  type PlanFormValues,
} from './catalogue-values.ts';
import { FormActions } from './form-actions.tsx';

const usd = (cents: number) => formatUsd(centsToDollars(cents));

/** '$25.00 a file' for a state plan (priced per loaded file), '$9.99' otherwise. */
export function planPrice(plan: Pick<CataloguePlan, 'accessType' | 'priceCents'>): string {
  return plan.accessType === 'State' ? `${usd(plan.priceCents)} a file` : usd(plan.priceCents);
}

function installments(plan: CataloguePlan): string {
  if (!plan.installmentEligible) return 'No';
  return plan.maintenanceFeeCents > 0 ? `Yes, ${usd(plan.maintenanceFeeCents)} a month fee` : 'Yes';
}

const COLUMNS: readonly CatalogueColumn<CataloguePlan>[] = [
  { label: 'Type', cell: (plan) => plan.subscriptionType },
  { label: 'Access', cell: (plan) => plan.accessType },
  { label: 'Price', cell: (plan) => (plan.negotiable ? 'Negotiable' : planPrice(plan)) },
  { label: 'Searches', cell: (plan) => plan.searchCount ?? '—' },
  { label: 'Installments', cell: installments },
  { label: 'Status', cell: (plan) => (plan.active ? 'Offered' : 'Hidden') },
];

type PlanTarget = { kind: 'new' } | { kind: 'edit'; plan: CataloguePlan };

/** The plans: every one, offered or hidden, with 'Add plan' and 'Edit' in a modal form. */
export function PlansSection() {
  const queryClient = useQueryClient();
  const plans = useQuery({
    queryKey: catalogueKeys.plans,
    queryFn: ({ signal }) => listPlans(signal),
  });
  const [editing, setEditing] = useState<PlanTarget | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const open = (target: PlanTarget) => {
    setNotice(null);
    setEditing(target);
  };
  const saved = (plan: CataloguePlan, target: PlanTarget) => {
    setEditing(null);
    setNotice(`${plan.title} was ${target.kind === 'new' ? 'added' : 'saved'}.`);
    void queryClient.invalidateQueries({ queryKey: catalogueKeys.plans });
  };

  if (plans.isPending) return <PageLoader label="Loading plans…" />;
  if (plans.isError) return <FormAlert tone="error">{adminErrorMessage(plans.error)}</FormAlert>;

  return (
    <Stack gap="sm">
      {notice !== null && <FormAlert tone="success">{notice}</FormAlert>}
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed">
          A state plan is priced per file loaded for the chosen state. Changes apply to what is
          bought from now on.
        </Text>
        <Button onClick={() => open({ kind: 'new' })}>Add plan</Button>
      </Group>
      <CatalogueTable
        label="Plans"
        rows={plans.data}
        rowKey={(plan) => plan.id}
        header={{ label: 'Title', cell: (plan) => plan.title }}
        columns={COLUMNS}
        minWidth={900}
        actions={(plan) => (
          <Button
            size="xs"
            variant="default"
            aria-label={`Edit ${plan.title}`}
            onClick={() => open({ kind: 'edit', plan })}
          >
            Edit
          </Button>
        )}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.kind === 'edit' ? 'Edit plan' : 'Add plan'}
        size="lg"
        centered
      >
        {editing !== null && (
          <PlanForm
            key={editing.kind === 'edit' ? editing.plan.id : 'new'}
            plan={editing.kind === 'edit' ? editing.plan : null}
            onCancel={() => setEditing(null)}
            onSaved={(plan) => saved(plan, editing)}
          />
        )}
      </Modal>
    </Stack>
  );
}

const FLAGS = [
  { name: 'installmentEligible', label: 'Pay once or in 12 monthly installments' },
  { name: 'negotiable', label: 'Negotiable (not sold at checkout; sold through custom offers)' },
  { name: 'includesDataFeed', label: 'Includes the data feed' },
  { name: 'active', label: 'Offered on the Subscription page' },
] as const;

function Flag({
  control,
  name,
  label,
}: {
  control: Control<PlanFormValues, unknown, PlanInput>;
  name: (typeof FLAGS)[number]['name'];
  label: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Checkbox
          label={label}
          name={field.name}
          checked={field.value}
          onChange={(event) => field.onChange(event.currentTarget.checked)}
          onBlur={field.onBlur}
          ref={field.ref}
          error={fieldError(fieldState.error)}
        />
      )}
    />
  );
}

const planResolver = resolverOf(checkPlan);

/**
 * A plan's fields, money in dollars, checked with core's PlanInputSchema before anything is
 * sent; the server's field messages land on the same fields.
 */
function PlanForm({
  plan,
  onCancel,
  onSaved,
}: {
  plan: CataloguePlan | null;
  onCancel: () => void;
  onSaved: (plan: CataloguePlan) => void;
}) {
  const form = useForm<PlanFormValues, unknown, PlanInput>({
    resolver: planResolver,
    mode: 'onTouched',
    defaultValues: plan ? planFormValues(plan) : NEW_PLAN,
  });
  const { errors } = form.formState;
  const save = useMutation({
    mutationFn: (input: PlanInput) => savePlan(input, plan?.id ?? null),
    onSuccess: onSaved,
    onError: (error) => showServerFieldErrors(error, form.setError, planFieldOf),
  });
  const { buttonRef, resultRef } = useSettledFocus(save.isPending);
  const onSubmit = form.handleSubmit((input) => save.mutate(input));

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      aria-label={plan ? `Edit ${plan.title}` : 'Add plan'}
    >
      <Stack gap="md">
        {save.isError && (
          <FormAlert ref={resultRef} tone="error">
            {adminErrorMessage(save.error)}
          </FormAlert>
        )}
        <TextInput
          label="Title"
          required
          maxLength={120}
          data-autofocus
          {...form.register('title')}
          error={fieldError(errors.title)}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <NativeSelect
            label="Type"
            data={[...SUBSCRIPTION_TYPES]}
            {...form.register('subscriptionType')}
            error={fieldError(errors.subscriptionType)}
          />
          <NativeSelect
            label="Access"
            data={[...ACCESS_TYPES]}
            {...form.register('accessType')}
            error={fieldError(errors.accessType)}
          />
          <TextInput
            label="Price ($)"
            required
            inputMode="decimal"
            description="Per file for a State plan"
            {...form.register('price')}
            error={fieldError(errors.price)}
          />
          <TextInput
            label="Searches"
            inputMode="numeric"
            description="Individual Search plans only"
            {...form.register('searchCount')}
            error={fieldError(errors.searchCount)}
          />
          <TextInput
            label="Maintenance fee ($ a month)"
            inputMode="decimal"
            description="Added to each installment"
            {...form.register('maintenanceFee')}
            error={fieldError(errors.maintenanceFee)}
          />
          <TextInput
            label="Term (months)"
            inputMode="numeric"
            {...form.register('termMonths')}
            error={fieldError(errors.termMonths)}
          />
          <TextInput
            label="Position"
            inputMode="numeric"
            description="Tiles are shown in this order"
            {...form.register('sortOrder')}
            error={fieldError(errors.sortOrder)}
          />
        </SimpleGrid>
        <Textarea
          label="Description"
          maxLength={300}
          rows={2}
          {...form.register('priceDescription')}
          error={fieldError(errors.priceDescription)}
        />
        <Stack gap="xs" component="fieldset" m={0} p={0} style={{ border: 0 }}>
          <legend style={{ padding: 0, marginBottom: 'var(--mantine-spacing-xs)' }}>Options</legend>
          {FLAGS.map((flag) => (
            <Flag key={flag.name} control={form.control} name={flag.name} label={flag.label} />
          ))}
        </Stack>
        <FormActions
          submitRef={buttonRef}
          submitLabel={plan ? 'Save changes' : 'Add plan'}
          onCancel={onCancel}
          pending={save.isPending}
        />
      </Stack>
    </form>
  );
}
