import {
  Button,
  Fieldset,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Radio,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { ACCOUNT_TYPES, CARD_TYPES, PAYMENT_MESSAGES } from '@ratelens/core';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, useWatch, type FieldError } from 'react-hook-form';
import { fieldError } from '../../shared/field-error.tsx';
import {
  FIELD_LABELS,
  cvvHint,
  emptyPaymentValues,
  paymentDetailsOf,
  paymentResolver,
  type PaymentContext,
  type PaymentDetails,
  type PaymentFormValues,
  type PaymentMethod,
} from './payment-values.ts';

interface PaymentFormProps {
  /** The billing e-mail to start with (the account's, or the donor's). */
  defaultEmail: string;
  /** Whether what is paid for is ready (a cart with items, a valid amount). */
  ready: boolean;
  /** A payment is under way: the button is disabled and the blocking dialog shows (§4). */
  pending: boolean;
  onPay: (details: PaymentDetails) => void;
}

const CARD_TYPE_OPTIONS = [
  { value: '', label: 'Choose a card type' },
  ...CARD_TYPES.map((type) => ({ value: type, label: type })),
];

/**
 * The payment part of /checkout and /donation (subscriptions-and-payments §2, §4 "Payment",
 * §5): the Credit / Debit Card and Echeck Payment tabs, the billing section, Make Payment, and
 * the dialog that blocks the page while the payment is under way.
 */
export function PaymentForm({ defaultEmail, ready, pending, onPay }: PaymentFormProps) {
  const [method, setMethod] = useState<PaymentMethod>('card');
  const [defaultValues] = useState(() => emptyPaymentValues(defaultEmail));
  const form = useForm<PaymentFormValues, PaymentContext>({
    mode: 'onChange',
    defaultValues,
    resolver: paymentResolver,
    // Read by the resolver: each tab checks its own fields.
    context: { method },
  });
  const { errors, touchedFields, dirtyFields, isSubmitted, isValid } = form.formState;
  // The CVV hint follows the card type: American Express has 4 digits on the front.
  const cardType = useWatch({ control: form.control, name: 'card.cardType' });

  // Another tab, other required fields: check again. Not at mount, where a trigger leaves
  // react-hook-form's isValid stuck.
  const checkedMethod = useRef(method);
  useEffect(() => {
    if (checkedMethod.current === method) return;
    checkedMethod.current = method;
    void form.trigger();
  }, [method, form]);

  // A reload or a closed tab mid-payment would lose the answer (§2: "do not refresh").
  useEffect(() => {
    if (!pending) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [pending]);

  function errorOf<G extends keyof PaymentFormValues>(group: G, field: keyof PaymentFormValues[G]) {
    const name = field as string;
    const groupOf = (state: unknown) => (state as Record<string, unknown> | undefined)?.[name];
    const shown = Boolean(
      groupOf(touchedFields[group]) || groupOf(dirtyFields[group]) || isSubmitted,
    );
    const error = (errors[group] as Record<string, FieldError | undefined> | undefined)?.[name];
    return fieldError(error, shown);
  }

  const onSubmit = form.handleSubmit((values) => {
    if (!pending) onPay(paymentDetailsOf(values, method));
  });

  const card = FIELD_LABELS.card;
  const echeck = FIELD_LABELS.echeck;
  const billing = FIELD_LABELS.billing;

  return (
    <>
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Payment">
        <Stack gap="lg">
          <Tabs value={method} onChange={(value) => setMethod(value === 'echeck' ? value : 'card')}>
            <Tabs.List grow>
              <Tabs.Tab value="card">Credit / Debit Card</Tabs.Tab>
              <Tabs.Tab value="echeck">Echeck Payment</Tabs.Tab>
            </Tabs.List>

            <Tabs.Panel value="card" pt="md">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                <NativeSelect
                  label={card.cardType}
                  data={CARD_TYPE_OPTIONS}
                  required
                  {...form.register('card.cardType')}
                  error={errorOf('card', 'cardType')}
                />
                <TextInput
                  label={card.cardName}
                  autoComplete="cc-name"
                  required
                  {...form.register('card.cardName')}
                  error={errorOf('card', 'cardName')}
                />
                <TextInput
                  label={card.cardNumber}
                  autoComplete="cc-number"
                  inputMode="numeric"
                  required
                  {...form.register('card.cardNumber')}
                  error={errorOf('card', 'cardNumber')}
                />
                <TextInput
                  label={card.expiryDate}
                  autoComplete="cc-exp"
                  placeholder="MM/YYYY"
                  inputMode="numeric"
                  required
                  {...form.register('card.expiryDate')}
                  error={errorOf('card', 'expiryDate')}
                />
                <TextInput
                  label={card.cvv}
                  description={cvvHint(cardType)}
                  autoComplete="cc-csc"
                  inputMode="numeric"
                  maxLength={4}
                  required
                  {...form.register('card.cvv')}
                  error={errorOf('card', 'cvv')}
                />
              </SimpleGrid>
            </Tabs.Panel>

            <Tabs.Panel value="echeck" pt="md">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                <TextInput
                  label={echeck.routingNumber}
                  description="The 9-digit ABA number"
                  inputMode="numeric"
                  maxLength={9}
                  required
                  {...form.register('echeck.routingNumber')}
                  error={errorOf('echeck', 'routingNumber')}
                />
                <TextInput
                  label={echeck.accountNumber}
                  inputMode="numeric"
                  maxLength={17}
                  required
                  {...form.register('echeck.accountNumber')}
                  error={errorOf('echeck', 'accountNumber')}
                />
                <TextInput
                  label={echeck.accountName}
                  autoComplete="name"
                  required
                  {...form.register('echeck.accountName')}
                  error={errorOf('echeck', 'accountName')}
                />
                <TextInput
                  label={echeck.bankName}
                  required
                  {...form.register('echeck.bankName')}
                  error={errorOf('echeck', 'bankName')}
                />
                <Controller
                  control={form.control}
                  name="echeck.accountType"
                  render={({ field }) => (
                    <Radio.Group
                      label={echeck.accountType}
                      value={field.value}
                      onChange={(value) => field.onChange(value)}
                    >
                      <Group gap="lg" mt={6}>
                        {ACCOUNT_TYPES.map((type) => (
                          <Radio key={type} value={type} label={type} onBlur={field.onBlur} />
                        ))}
                      </Group>
                    </Radio.Group>
                  )}
                />
              </SimpleGrid>
            </Tabs.Panel>
          </Tabs>

          <Fieldset
            legend="Billing Address"
            variant="unstyled"
            styles={{ legend: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } }}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                label={billing.firstName}
                autoComplete="billing given-name"
                required
                {...form.register('billing.firstName')}
                error={errorOf('billing', 'firstName')}
              />
              <TextInput
                label={billing.lastName}
                autoComplete="billing family-name"
                required
                {...form.register('billing.lastName')}
                error={errorOf('billing', 'lastName')}
              />
              <TextInput
                label={billing.address}
                autoComplete="billing street-address"
                required
                {...form.register('billing.address')}
                error={errorOf('billing', 'address')}
              />
              <TextInput
                label={billing.city}
                autoComplete="billing address-level2"
                required
                {...form.register('billing.city')}
                error={errorOf('billing', 'city')}
              />
              <TextInput
                label={billing.state}
                autoComplete="billing address-level1"
                required
                {...form.register('billing.state')}
                error={errorOf('billing', 'state')}
              />
              <TextInput
                label={billing.zipcode}
                autoComplete="billing postal-code"
                inputMode="numeric"
                maxLength={10}
                required
                {...form.register('billing.zipcode')}
                error={errorOf('billing', 'zipcode')}
              />
              <TextInput
                label={billing.email}
                type="email"
                autoComplete="email"
                required
                {...form.register('billing.email')}
                error={errorOf('billing', 'email')}
              />
            </SimpleGrid>
          </Fieldset>

          <Group>
            <Button type="submit" size="md" disabled={!ready || !isValid || pending}>
              Make Payment
            </Button>
          </Group>
        </Stack>
      </form>

      <Modal
        opened={pending}
        onClose={() => undefined}
        title="Payment in progress"
        withCloseButton={false}
        closeOnEscape={false}
        closeOnClickOutside={false}
        centered
      >
        <Group gap="md" wrap="nowrap" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden="true" />
          <Text>{PAYMENT_MESSAGES.paymentInProgress}</Text>
        </Group>
      </Modal>
    </>
  );
}
