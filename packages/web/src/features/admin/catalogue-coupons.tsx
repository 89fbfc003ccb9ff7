import { Button, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { CatalogueCoupon, CouponInput } from '@ratelens/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { fieldError } from '../../shared/field-error.tsx';
import { FormAlert } from '../../shared/form-alert.tsx';
import { ApiRequestError } from '../../shared/http.ts';
import { PageLoader } from '../../shared/page-loader.tsx';
import { adminErrorMessage } from './admin-api.ts';
import { catalogueKeys, createCoupon, deactivateCoupon, listCoupons } from './catalogue-api.ts';
import { CatalogueTable, type CatalogueColumn } from './catalogue-table.tsx';
import {
  NEW_COUPON,
  checkCoupon,
  couponFieldOf,
  couponWindow,
  resolverOf,
  type CouponFormValues,
} from './catalogue-values.ts';
import { ConfirmRemoval } from './confirm-removal.tsx';

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
  const queryClient = useQueryClient();
  const coupons = useQuery({
    queryKey: catalogueKeys.coupons,
    queryFn: ({ signal }) => listCoupons(signal),
  });
  const [adding, setAdding] = useState(false);
  const [stopping, setStopping] = useState<CatalogueCoupon | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: catalogueKeys.coupons });

  const deactivate = useMutation({
    mutationFn: (coupon: CatalogueCoupon) => deactivateCoupon(coupon.id),
    onSuccess: (coupon) => {
      setStopping(null);
      setNotice(`${coupon.code} was deactivated.`);
      refresh();
    },
  });
  const askDeactivate = (coupon: CatalogueCoupon) => {
    deactivate.reset();
    setNotice(null);
    setStopping(coupon);
  };

  if (coupons.isPending) return <PageLoader label="Loading coupons…" />;
  if (coupons.isError)
    return <FormAlert tone="error">{adminErrorMessage(coupons.error)}</FormAlert>;

  return (
    <Stack gap="sm">
      {notice !== null && <FormAlert tone="success">{notice}</FormAlert>}
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed">
          A coupon takes a percentage off annual items. Uses count paid orders and payments under
          way.
        </Text>
        <Button
          onClick={() => {
            setNotice(null);
            setAdding(true);
          }}
        >
          Add coupon
        </Button>
      </Group>
      {coupons.data.length === 0 ? (
        <Text>{NO_COUPONS}</Text>
      ) : (
        <CatalogueTable
          label="Coupons"
          rows={coupons.data}
          rowKey={(coupon) => coupon.id}
          header={{ label: 'Code', cell: (coupon) => coupon.code }}
          columns={COLUMNS}
          minWidth={820}
          actions={(coupon) =>
            coupon.active ? (
              <Button
                size="xs"
                color="red"
                variant="light"
                aria-label={`Deactivate ${coupon.code}`}
                onClick={() => askDeactivate(coupon)}
              >
                Deactivate
              </Button>
            ) : null
          }
        />
      )}
      <Modal opened={adding} onClose={() => setAdding(false)} title="Add coupon" centered>
        {adding && (
          <CouponForm
            onCancel={() => setAdding(false)}
            onSaved={(coupon) => {
              setAdding(false);
              setNotice(`${coupon.code} was added.`);
              refresh();
            }}
          />
        )}
      </Modal>
      <ConfirmRemoval
        opened={stopping !== null}
        title="Deactivate coupon"
        question={
          stopping &&
          `Deactivate ${stopping.code}? It stops applying at once; orders already paid keep their discount.`
        }
        confirmLabel="Yes, deactivate"
        error={deactivate.isError ? adminErrorMessage(deactivate.error) : null}
        pending={deactivate.isPending}
        onConfirm={() => stopping && deactivate.mutate(stopping)}
        onCancel={() => {
          if (!deactivate.isPending) setStopping(null);
        }}
      />
    </Stack>
  );
}

const couponResolver = resolverOf(checkCoupon);

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
    onError: (error) => {
      if (!(error instanceof ApiRequestError)) return;
      for (const { field, message } of error.fieldErrors) {
        const name = couponFieldOf(field);
        if (name) form.setError(name, { type: 'server', message });
      }
    },
  });
  const onSubmit = form.handleSubmit((input) => save.mutate(input));

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Add coupon">
      <Stack gap="md">
        {save.isError && <FormAlert tone="error">{adminErrorMessage(save.error)}</FormAlert>}
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
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Add coupon
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
