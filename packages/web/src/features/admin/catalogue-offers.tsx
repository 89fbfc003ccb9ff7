import { NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import {
  centsToDollars,
  formatUsd,
  type CatalogueOffer,
  type CataloguePlan,
  type CustomOfferInput,
} from '@ratelens/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { fieldError } from '../../shared/field-error.tsx';
import { FormAlert } from '../../shared/form-alert.tsx';
import { showServerFieldErrors } from '../../shared/server-field-errors.ts';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';
import { formatCalendarDate } from '../../shared/format-date.ts';
import { PageLoader } from '../../shared/page-loader.tsx';
import { useStates } from '../inventory/inventory-queries.ts';
import { adminErrorMessage } from './admin-api.ts';
import { catalogueKeys, createOffer, listOffers, listPlans, removeOffer } from './catalogue-api.ts';
import { CatalogueSection } from './catalogue-section.tsx';
import type { CatalogueColumn } from './catalogue-table.tsx';
import {
  NEW_OFFER,
  checkOffer,
  lastDayOf,
  offerFieldOf,
  resolverOf,
  type OfferFormValues,
} from './catalogue-values.ts';
import { FormActions } from './form-actions.tsx';

export const NO_OFFERS = 'No custom offers yet.';

function expiry(offer: CatalogueOffer): string {
  if (offer.expiresAt === null) return 'No end';
  const day = formatCalendarDate(lastDayOf(offer.expiresAt));
  return Date.parse(offer.expiresAt) <= Date.now() ? `Ended ${day}` : `Until ${day}`;
}

const COLUMNS: readonly CatalogueColumn<CatalogueOffer>[] = [
  { label: 'Plan', cell: (offer) => offer.planTitle },
  { label: 'State', cell: (offer) => offer.stateCode ?? 'National' },
  { label: 'Price', cell: (offer) => formatUsd(centsToDollars(offer.priceCents)) },
  { label: 'Note', cell: (offer) => offer.note || '—' },
  { label: 'Expires', cell: expiry },
];

/** Custom offers: a price for one account, added in a modal form, removed after a confirmation. */
export function OffersSection() {
  return (
    <CatalogueSection<CatalogueOffer>
      queryKey={catalogueKeys.offers}
      load={listOffers}
      loadingLabel="Loading custom offers…"
      emptyText={NO_OFFERS}
      intro={
        <>
          The account sees its offers under &lsquo;Customized Offer For You&rsquo; and buys them at
          the offered price.
        </>
      }
      addLabel="Add offer"
      addTitle="Add custom offer"
      form={({ onCancel, onSaved }) => (
        <OfferForm
          onCancel={onCancel}
          onSaved={(offer) => onSaved(`The offer to ${offer.email} was added.`)}
        />
      )}
      table={{
        label: 'Custom offers',
        rowKey: (offer) => offer.id,
        header: { label: 'Account', cell: (offer) => offer.email },
        columns: COLUMNS,
        minWidth: 860,
      }}
      removal={{
        button: 'Remove',
        buttonLabel: (offer) => `Remove the offer to ${offer.email} for ${offer.planTitle}`,
        title: 'Remove custom offer',
        question: (offer) =>
          `Remove the ${offer.planTitle} offer to ${offer.email}? The account no longer sees it.`,
        confirmLabel: 'Yes, remove',
        run: (offer) => removeOffer(offer.id),
        done: (offer) => `The offer to ${offer.email} was removed.`,
      }}
    />
  );
}

const offerResolver = resolverOf(checkOffer);

const planLabel = (plan: CataloguePlan) =>
  `${plan.title} (${plan.subscriptionType}${plan.active ? '' : ', hidden'})`;

/**
 * A new offer: the account by e-mail, a plan, its state when the plan is sold per state, and the
 * offered total price. Checked with core's CustomOfferInputSchema.
 */
function OfferForm({
  onCancel,
  onSaved,
}: {
  onCancel: () => void;
  onSaved: (offer: CatalogueOffer) => void;
}) {
  const plans = useQuery({
    queryKey: catalogueKeys.plans,
    queryFn: ({ signal }) => listPlans(signal),
  });
  const states = useStates();
  const form = useForm<OfferFormValues, unknown, CustomOfferInput>({
    resolver: offerResolver,
    mode: 'onTouched',
    defaultValues: NEW_OFFER,
  });
  const { errors } = form.formState;
  const planId = useWatch({ control: form.control, name: 'planId' });
  const chosen = plans.data?.find((plan) => String(plan.id) === planId);
  const perState = chosen?.accessType === 'State';

  const save = useMutation({
    mutationFn: (input: CustomOfferInput) =>
      // A national plan's offer names no state, whatever the state box held before.
      createOffer(perState ? input : { ...input, stateCode: null }),
    onSuccess: onSaved,
    onError: (error) => showServerFieldErrors(error, form.setError, offerFieldOf),
  });
  const { buttonRef, resultRef } = useSettledFocus(save.isPending);
  const onSubmit = form.handleSubmit((input) => save.mutate(input));

  if (plans.isPending) return <PageLoader label="Loading plans…" />;
  if (plans.isError) return <FormAlert tone="error">{adminErrorMessage(plans.error)}</FormAlert>;

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Add custom offer">
      <Stack gap="md">
        {save.isError && (
          <FormAlert ref={resultRef} tone="error">
            {adminErrorMessage(save.error)}
          </FormAlert>
        )}
        <TextInput
          label="Account e-mail"
          type="email"
          required
          data-autofocus
          {...form.register('email')}
          error={fieldError(errors.email)}
        />
        <NativeSelect
          label="Plan"
          required
          data={[
            { value: '', label: 'Choose a plan' },
            ...plans.data.map((plan) => ({ value: String(plan.id), label: planLabel(plan) })),
          ]}
          {...form.register('planId')}
          error={fieldError(errors.planId)}
        />
        {perState && (
          <NativeSelect
            label="State"
            required
            data={[
              { value: '', label: 'Choose a state' },
              ...(states.data ?? []).map((state) => ({
                value: state.stateCode,
                label: `${state.stateName} (${state.stateCode})`,
              })),
            ]}
            {...form.register('stateCode')}
            error={fieldError(errors.stateCode)}
          />
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label="Price ($)"
            required
            inputMode="decimal"
            description="The total the account pays"
            {...form.register('price')}
            error={fieldError(errors.price)}
          />
          <TextInput
            label="Last day"
            type="date"
            description="No end when empty"
            {...form.register('lastDay')}
            error={fieldError(errors.lastDay)}
          />
        </SimpleGrid>
        <TextInput
          label="Note"
          maxLength={200}
          description="For administrators only"
          {...form.register('note')}
          error={fieldError(errors.note)}
        />
        <FormActions
          submitRef={buttonRef}
          submitLabel="Add offer"
          onCancel={onCancel}
          pending={save.isPending}
        />
      </Stack>
    </form>
  );
}
