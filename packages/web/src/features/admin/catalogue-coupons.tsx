import { SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { CatalogueCoupon, CouponInput } from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { fieldError } from '../../shared/field-error.tsx';
import { FormAlert } from '../../shared/form-alert.tsx';
import { showServerFieldErrors } from '../../shared/server-field-errors.ts';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';
import { adminErrorMessage } from './admin-api.ts';
import { catalogueKeys, createCoupon, deactivateCoupon, listCoupons } from './catalogue-api.ts';
import { CatalogueSection } from './catalogue-section.tsx';
import type { CatalogueColumn } from './catalogue-table.tsx';
import {
  NEW_COUPON,
  checkCoupon,
  couponFieldOf,
  couponWindow,
  resolverOf,
  type CouponFormValues,
} from './catalogue-values.ts';
import { FormActions } from './form-actions.tsx';

export const NO_COUPONS = 'No coupons yet.';

const limit = (uses: number | null) => (uses === null ? 'no limit' : String(uses));

const COLUMNS: readonly CatalogueColumn<CatalogueCoupon>[] = [
  { label: 'Off annual items', cell: (coupon) => `${coupon.percent}%` },
  { label: 'Valid', cell: couponWindow },
  { label: 'Used', cell: (coupon) => `${coupon.timesUsed} of ${limit(coupon.maxUses)}` },
  { label: 'Per account', cell: (coupon) => limit(coupon.maxUsesPerUser) },
  { label: 'Status', cell: (coupon) => (coupon.active ? 'Active' : 'Deactivated') },
];

/** The coupons: add one in a modal form, deactivate one after a confirmation. */
export function CouponsSection() {
  return (
    <CatalogueSection<CatalogueCoupon>
      queryKey={catalogueKeys.coupons}
      load={listCoupons}
      loadingLabel="Loading coupons…"
      emptyText={NO_COUPONS}
      intro="A coupon takes a percentage off annual items. Uses count paid orders and payments under way."
      addLabel="Add coupon"
      addTitle="Add coupon"
      form={({ onCancel, onSaved }) => (
        <CouponForm
          onCancel={onCancel}
          onSaved={(coupon) => onSaved(`${coupon.code} was added.`)}
        />
      )}
      table={{
        label: 'Coupons',
        rowKey: (coupon) => coupon.id,
        header: { label: 'Code', cell: (coupon) => coupon.code },
        columns: COLUMNS,
        minWidth: 820,
      }}
      removal={{
        button: 'Deactivate',
        buttonLabel: (coupon) => `Deactivate ${coupon.code}`,
        applies: (coupon) => coupon.active,
        title: 'Deactivate coupon',
        question: (coupon) =>
          `Deactivate ${coupon.code}? It stops applying at once; orders already paid keep their discount.`,
        confirmLabel: 'Yes, deactivate',
        run: (coupon) => deactivateCoupon(coupon.id),
        done: (coupon) => `${coupon.code} was deactivated.`,
      }}
    />
  );
}

const couponResolver = resolverOf((values: CouponFormValues) => checkCoupon(values));

/** A new coupon, checked with core's CouponInputSchema; days are UTC calendar days. */
function CouponForm({
  onCancel,
  onSaved,
}: {
  onCancel: () => void;
  onSaved: (coupon: CatalogueCoupon) => void;
}) {
  const form = useForm<CouponFormValues, unknown, CouponInput>({
    resolver: couponResolver,
    mode: 'onTouched',
    defaultValues: NEW_COUPON,
  });
  const { errors } = form.formState;
  const save = useMutation({
    mutationFn: createCoupon,
    onSuccess: onSaved,
    onError: (error) => showServerFieldErrors(error, form.setError, couponFieldOf),
  });
  const { buttonRef, resultRef } = useSettledFocus(save.isPending);
  const onSubmit = form.handleSubmit((input) => save.mutate(input));

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Add coupon">
      <Stack gap="md">
        {save.isError && (
          <FormAlert ref={resultRef} tone="error">
            {adminErrorMessage(save.error)}
          </FormAlert>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label="Code"
            required
            maxLength={40}
            autoCapitalize="characters"
            spellCheck={false}
            data-autofocus
            {...form.register('code')}
            error={fieldError(errors.code)}
          />
          <TextInput
            label="Percent off"
            required
            inputMode="numeric"
            {...form.register('percent')}
            error={fieldError(errors.percent)}
          />
          <TextInput
            label="First day"
            type="date"
            description="Today when empty"
            {...form.register('firstDay')}
            error={fieldError(errors.firstDay)}
          />
          <TextInput
            label="Last day"
            type="date"
            description="No end when empty"
            {...form.register('lastDay')}
            error={fieldError(errors.lastDay)}
          />
          <TextInput
            label="Uses in all"
            inputMode="numeric"
            description="No limit when empty"
            {...form.register('maxUses')}
            error={fieldError(errors.maxUses)}
          />
          <TextInput
            label="Uses per account"
            inputMode="numeric"
            description="No limit when empty"
            {...form.register('maxUsesPerUser')}
            error={fieldError(errors.maxUsesPerUser)}
          />
        </SimpleGrid>
        <FormActions
          submitRef={buttonRef}
          submitLabel="Add coupon"
          onCancel={onCancel}
          pending={save.isPending}
        />
      </Stack>
    </form>
  );
}
