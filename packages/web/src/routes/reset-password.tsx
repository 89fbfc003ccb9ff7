import { zodResolver } from '@hookform/resolvers/zod';
import { Button, PasswordInput, Stack, Text } from '@mantine/core';
import { ResetPasswordFormSchema } from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { resetPassword, type ResetPasswordInput } from '../features/auth/auth-api.ts';
import { fieldError } from '../shared/field-error.tsx';
import { FormAlert } from '../shared/form-alert.tsx';
import { Page } from '../shared/page.tsx';
import { AnchorLink } from '../shared/router-link.tsx';
import { useSettledFocus } from '../shared/use-settled-focus.ts';

/** The e-mailed link carries `email` and `token`; older links spell them `Email` and `Token`. */
function linkParams(params: URLSearchParams): { email: string; token: string } | null {
  const email = params.get('email') ?? params.get('Email');
  const token = params.get('token') ?? params.get('Token');
  return email && token ? { email, token } : null;
}

/** Reset password (search-and-accounts §2, §4 "Forms", §5 "Reset password"). */
export function ResetPasswordRoute() {
  const [params] = useSearchParams();
  const link = linkParams(params);

  return (
    <Page title="Reset your password">
      {link ? (
        <ResetPasswordForm email={link.email} token={link.token} />
      ) : (
        <>
          <Text>
            This page needs the link from a password reset e-mail, and that link is missing or
            incomplete. Ask for a new one and open the link in the e-mail.
          </Text>
          <AnchorLink to="/forgotPassword">Ask for a new reset link</AnchorLink>
        </>
      )}
    </Page>
  );
}

function ResetPasswordForm({ email, token }: { email: string; token: string }) {
  const form = useForm({
    resolver: zodResolver(ResetPasswordFormSchema),
    mode: 'onChange',
    criteriaMode: 'all',
    defaultValues: { NewPassword: '', ConfirmPassword: '' },
  });
  const { errors, dirtyFields, touchedFields, isValid } = form.formState;

  const reset = useMutation({
    mutationFn: (input: ResetPasswordInput) => resetPassword(input),
    onSuccess: () => form.reset(),
  });
  const { buttonRef, resultRef } = useSettledFocus(reset.isPending);

  const onSubmit = form.handleSubmit((values) =>
    reset.mutate({ ...values, Email: email, Token: token }),
  );

  return (
    <Stack gap="md">
      <Text>
        Choose a new password for <strong>{email}</strong>.
      </Text>
      {reset.isSuccess && (
        <FormAlert ref={resultRef} tone="success">
          {reset.data.message} <AnchorLink to="/login">Sign in</AnchorLink>
        </FormAlert>
      )}
      {reset.isError && (
        <FormAlert ref={resultRef} tone="error">
          {reset.error.message}
        </FormAlert>
      )}
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <PasswordInput
            label="New Password"
            autoComplete="new-password"
            required
            {...form.register('NewPassword', { deps: ['ConfirmPassword'] })}
            error={fieldError(
              errors.NewPassword,
              Boolean(dirtyFields.NewPassword || touchedFields.NewPassword),
            )}
          />
          <PasswordInput
            label="Confirm Password"
            autoComplete="new-password"
            required
            {...form.register('ConfirmPassword')}
            error={fieldError(
              errors.ConfirmPassword,
              Boolean(dirtyFields.ConfirmPassword || touchedFields.ConfirmPassword),
            )}
          />
          <Button ref={buttonRef} type="submit" disabled={!isValid} loading={reset.isPending}>
            Reset password
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
