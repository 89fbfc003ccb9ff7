import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { ForgetPasswordFormSchema, SPEC_MESSAGES } from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { forgetPassword } from '../features/auth/auth-api.ts';
import { BotCheck, type BotCheckHandle } from '../shared/bot-check.tsx';
import { fieldError } from '../shared/field-error.tsx';
import { FormAlert } from '../shared/form-alert.tsx';
import { ApiRequestError } from '../shared/http.ts';
import { Page } from '../shared/page.tsx';
import { AnchorLink } from '../shared/router-link.tsx';
import { useSettledFocus } from '../shared/use-settled-focus.ts';

/** The catalogue's message for a failure without one from the server (search-and-accounts §8). */
export const USER_NOT_FOUND_MESSAGE = SPEC_MESSAGES.userNotFound;

function failureMessage(error: Error): string {
  if (error instanceof ApiRequestError) {
    // Without an answer the address was never checked: say the connection failed instead.
    if (error.status === 0) return error.message;
    return error.serverMessage ?? USER_NOT_FOUND_MESSAGE;
  }
  return USER_NOT_FOUND_MESSAGE;
}

/** Forgot password (search-and-accounts §2): an e-mail field and a submit button. */
export function ForgotPasswordRoute() {
  const botCheck = useRef<BotCheckHandle>(null);
  const [altcha, setAltcha] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(ForgetPasswordFormSchema),
    mode: 'onTouched',
    defaultValues: { Email: '' },
  });

  const request = useMutation({
    mutationFn: (values: { Email: string; altcha: string }) => forgetPassword(values),
    onSettled: () => botCheck.current?.reset(),
  });
  const { buttonRef, resultRef } = useSettledFocus(request.isPending);

  const onSubmit = form.handleSubmit((values) => {
    if (altcha !== null) request.mutate({ ...values, altcha });
  });

  return (
    <Page title="Forgot your password?">
      <Text>Enter the e-mail address of your account and we will send you a reset link.</Text>
      {request.isSuccess && (
        <FormAlert ref={resultRef} tone="success">
          {request.data.message}
        </FormAlert>
      )}
      {request.isError && (
        <FormAlert ref={resultRef} tone="error">
          {failureMessage(request.error)}
        </FormAlert>
      )}
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            {...form.register('Email')}
            error={fieldError(form.formState.errors.Email)}
          />
          <BotCheck ref={botCheck} onPayload={setAltcha} />
          <Button
            ref={buttonRef}
            type="submit"
            disabled={altcha === null}
            loading={request.isPending}
          >
            Send reset link
          </Button>
        </Stack>
      </form>
      <Text size="sm">
        Remembered it? <AnchorLink to="/login">Sign in</AnchorLink>
      </Text>
    </Page>
  );
}
