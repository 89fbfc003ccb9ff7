import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { SubscriptionViewMailQuerySchema } from '@ratelens/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { fieldError } from '../../shared/field-error.tsx';
import { sendPlanLead } from './subscriptions-api.ts';

/** Asked once per browser session: a second visit to the plans page does not ask again. */
const ASKED_KEY = 'planLeadAsked';

function alreadyAsked(): boolean {
  try {
    return window.sessionStorage.getItem(ASKED_KEY) !== null;
  } catch {
    return false;
  }
}

function rememberAsked(): void {
  try {
    window.sessionStorage.setItem(ASKED_KEY, '1');
  } catch {
    // Storage disabled: the popup shows again next time, which is harmless.
  }
}

/**
 * The plans page's name and e-mail popup (subscriptions-and-payments §2 "Subscription view"):
 * open on load, name required, e-mail in e-mail format. The answer of the call is ignored and a
 * failure is silent (§8): the popup closes either way. 'Not now' closes it without sending.
 * The server tells the team, who get in touch; it mails nothing to the address typed here (a
 * public form without a bot check must not send mail to any address it is given; ADR 0017),
 * and the popup's words promise no more than that.
 */
export function PlanLeadModal() {
  const [opened, setOpened] = useState(() => !alreadyAsked());
  const form = useForm({
    resolver: zodResolver(SubscriptionViewMailQuerySchema),
    mode: 'onChange',
    defaultValues: { userName: '', userEmail: '' },
  });
  const { errors, dirtyFields, touchedFields, isSubmitted, isValid, isSubmitting } = form.formState;

  const close = () => {
    rememberAsked();
    setOpened(false);
    // Open since the page loaded, it has no element to give the focus back to (Mantine's
    // returnFocus keeps none): the page's main landmark (app-layout.tsx) takes it, not <body>.
    document.getElementById('main')?.focus({ preventScroll: true });
  };

  const onSubmit = form.handleSubmit(async ({ userName, userEmail }) => {
    try {
      await sendPlanLead(userName, userEmail);
    } catch {
      // §8: mail-send failure is silent.
    }
    close();
  });

  return (
    <Modal opened={opened} onClose={close} title="See our plans" centered>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <Text size="sm">
            Leave your name and e-mail address, and our team will get in touch about our plans.
          </Text>
          <TextInput
            label="Name"
            autoComplete="name"
            required
            maxLength={100}
            data-autofocus
            {...form.register('userName')}
            error={fieldError(
              errors.userName,
              Boolean(dirtyFields.userName || touchedFields.userName || isSubmitted),
            )}
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            {...form.register('userEmail')}
            error={fieldError(
              errors.userEmail,
              Boolean(dirtyFields.userEmail || touchedFields.userEmail || isSubmitted),
            )}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Not now
            </Button>
            <Button type="submit" disabled={!isValid} loading={isSubmitting}>
              Submit
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
