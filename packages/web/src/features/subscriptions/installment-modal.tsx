import { Button, Modal, Stack, Text, UnstyledButton } from '@mantine/core';
import { INSTALLMENT_MONTHS, type Subscription } from '@ratelens/core';
import {
  formatCents,
  installmentScheduleOf,
  installmentWording,
  priceChoices,
} from './cart-pricing.ts';
import classes from './subscriptions.module.css';

interface InstallmentModalProps {
  /** The plan being bought, or null when the dialog is closed. */
  plan: Subscription | null;
  onChoose: (plan: Subscription, installment: boolean) => void;
  onClose: () => void;
}

/**
 * 'How do you want to pay?' (subscriptions-and-payments §2 "Subscription", §9): Pay Once with a
 * $0 maintenance fee, or Via 12 Months Installment at the price ÷ 12 plus the plan's monthly
 * maintenance fee, the twelfth payment said apart when it takes the rounding.
 */
export function InstallmentModal({ plan, onChoose, onClose }: InstallmentModalProps) {
  return (
    <Modal opened={plan !== null} onClose={onClose} title="How do you want to pay?" centered>
      {plan && <Options plan={plan} onChoose={onChoose} onClose={onClose} />}
    </Modal>
  );
}

function Options({ plan, onChoose, onClose }: InstallmentModalProps & { plan: Subscription }) {
  const once = priceChoices([{ plan, installment: false }], 0).dueTodayCents;
  const payments = installmentWording(installmentScheduleOf(plan));
  const fee = formatCents(plan.maintenanceFeeCents);
  return (
    <Stack gap="sm">
      <Text size="sm">{plan.subscriptionTitle}</Text>
      <UnstyledButton
        className={classes.option}
        onClick={() => onChoose(plan, false)}
        data-autofocus
      >
        <Text fw={600}>Pay Once</Text>
        <Text size="sm">{formatCents(once)} today, with a $0.00 maintenance fee</Text>
      </UnstyledButton>
      <UnstyledButton className={classes.option} onClick={() => onChoose(plan, true)}>
        <Text fw={600}>Via {INSTALLMENT_MONTHS} Months Installment</Text>
        <Text size="sm">
          {payments}, each including a {fee} maintenance fee
        </Text>
      </UnstyledButton>
      <Button variant="default" onClick={onClose} mt="xs">
        Cancel
      </Button>
    </Stack>
  );
}
