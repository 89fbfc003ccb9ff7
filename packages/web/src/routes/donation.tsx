import { Stack, Text, TextInput, Title } from '@mantine/core';
import { DonationAmountSchema, PAYMENT_MESSAGES } from '@ratelens/core';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { clearDonation, readDonor, type Donor } from '../features/donations/donation-session.ts';
import { sendPayment } from '../features/subscriptions/payment-call.ts';
import { PaymentForm } from '../features/subscriptions/payment-form.tsx';
import type { PaymentDetails } from '../features/subscriptions/payment-values.ts';
import { FAILURE_SCROLL_DELAY_MS, usePayment } from '../features/subscriptions/use-payment.ts';
import { AttentionAlert } from '../shared/attention-alert.tsx';
import { Page } from '../shared/page.tsx';
import type { ThankYouState } from './thank-you.tsx';

export const DONATION_HEADING = 'Help us fight the high cost of healthcare';

/**
 * The donation page (subscriptions-and-payments §2 "Donation page", §5 "Donation amount", §8):
 * for a donor whose e-mail the one-time code confirmed; anyone else goes to /.
 */
export function DonationRoute() {
  const [donor] = useState(readDonor);
  if (donor === null) return <Navigate to="/" replace />;
  return (
    <Page title={DONATION_HEADING}>
      <Donation donor={donor} />
    </Page>
  );
}

function Donation({ donor }: { donor: Donor }) {
  const navigate = useNavigate();
  const [amount, setAmount] = useState('');
  const [amountTouched, setAmountTouched] = useState(false);
  const parsed = DonationAmountSchema.safeParse(amount);
  const amountError =
    amountTouched || amount !== ''
      ? amount.trim() === ''
        ? 'Amount is required.'
        : parsed.success
          ? undefined
          : parsed.error.issues[0]?.message
      : undefined;

  const payment = usePayment({
    prepare: (details: PaymentDetails) => {
      const body = {
        items: [{ actualPrice: Number(amount.trim()) }],
        paymentDetails: details.paymentDetails,
        billingAddress: details.billingAddress,
      };
      const path =
        details.method === 'card'
          ? '/api/Payment/DonationCardPayment'
          : '/api/Payment/DonationCeckPayment';
      return {
        body,
        send: (idempotencyKey: string) =>
          sendPayment({
            path,
            body,
            idempotencyKey,
            authenticated: false,
            headers: { 'Donation-Token': donor.donationToken },
            fallback: PAYMENT_MESSAGES.donationFailed,
          }),
      };
    },
    onPaid: (response) => {
      clearDonation();
      const state: ThankYouState = {
        kind: 'donation',
        amountCents: response.amountCents,
        orderId: response.orderId,
      };
      void navigate('/thankYou', { replace: true, state });
    },
  });

  return (
    <Stack gap="xl">
      {payment.failure !== null && (
        <AttentionAlert key={payment.failure.attempt} delayMs={FAILURE_SCROLL_DELAY_MS} scrollToTop>
          {payment.failure.message}
        </AttentionAlert>
      )}
      <Text>
        RateLens shows what hospitals charge so that patients and employers can pay less. A donation
        keeps the data free for patients. You are giving as {donor.email}.
      </Text>
      <TextInput
        label="Amount (USD)"
        description="For example 25 or 25.50"
        leftSection="$"
        inputMode="decimal"
        autoComplete="transaction-amount"
        required
        value={amount}
        onChange={(event) => setAmount(event.currentTarget.value)}
        onBlur={() => setAmountTouched(true)}
        error={amountError}
        disabled={payment.pending}
        maw={280}
      />
      <Stack gap="md" component="section" aria-labelledby="payment-heading">
        <Title order={2} size="h3" id="payment-heading">
          Payment
        </Title>
        <PaymentForm
          defaultEmail={donor.email}
          ready={parsed.success}
          pending={payment.pending}
          onPay={payment.pay}
        />
      </Stack>
    </Stack>
  );
}
