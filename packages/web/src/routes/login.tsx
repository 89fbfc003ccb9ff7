import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { LoginFormSchema, type LoginRequest } from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { login } from '../features/auth/auth-api.ts';
import { useSignedOutEntry, type LoginArrival } from '../features/auth/guards.tsx';
import { storeLogin } from '../features/auth/session.ts';
import { fieldError } from '../shared/field-error.tsx';
import { FormAlert } from '../shared/form-alert.tsx';
import { Page } from '../shared/page.tsx';
import { AnchorLink } from '../shared/router-link.tsx';
import { useSettledFocus } from '../shared/use-settled-focus.ts';

function noticeFrom(state: unknown): Required<LoginArrival> | null {
  if (typeof state === 'object' && state !== null && 'notice' in state) {
    if (typeof state.notice !== 'string') return null;
    const tone = 'tone' in state && state.tone === 'info' ? 'info' : 'success';
    return { notice: state.notice, tone };
  }
  return null;
}

/** Sign in (search-and-accounts §2 "Sign in"). */
export function LoginRoute() {
  const { hadToken } = useSignedOutEntry();
  if (hadToken) return <Navigate to="/profile" replace />;
  return (
    <Page title="Sign in">
      <LoginForm />
    </Page>
  );
}

function LoginForm() {
  const navigate = useNavigate();
  const notice = noticeFrom(useLocation().state);
  const form = useForm({
    resolver: zodResolver(LoginFormSchema),
    mode: 'onTouched',
    defaultValues: { UserName: '', password: '' },
  });
  const { errors } = form.formState;

  const signIn = useMutation({
    mutationFn: (values: LoginRequest) => login(values),
    onSuccess: async (session) => {
      storeLogin(session);
      await navigate('/', { replace: true });
    },
  });

  const { buttonRef, resultRef } = useSettledFocus(signIn.isPending);
  const onSubmit = form.handleSubmit((values) => signIn.mutate(values));

  return (
    <Stack gap="md">
      {notice && !signIn.isError && <FormAlert tone={notice.tone}>{notice.notice}</FormAlert>}
      {signIn.isError && (
        <FormAlert ref={resultRef} tone="error">
          {signIn.error.message}
        </FormAlert>
      )}
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="username"
            required
            {...form.register('UserName')}
            error={fieldError(errors.UserName)}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...form.register('password')}
            error={fieldError(errors.password)}
          />
          <Group justify="flex-end">
            <AnchorLink to="/forgotPassword" size="sm">
              Forgot your Password
            </AnchorLink>
          </Group>
          <Button ref={buttonRef} type="submit" loading={signIn.isPending}>
            Sign In
          </Button>
        </Stack>
      </form>
      <Text size="sm">
        New to RateLens? <AnchorLink to="/registration">Create an account</AnchorLink>
      </Text>
    </Stack>
  );
}
