import { zodResolver } from '@hookform/resolvers/zod';
import {
  Anchor,
  Button,
  Checkbox,
  Group,
  List,
  Modal,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  LIMITS,
  PASSWORD_SPECIAL_CHARACTERS,
  RegisterFormSchema,
  type LoginResponse,
  type RegisterForm,
} from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Navigate, useNavigate } from 'react-router';
import { login, register } from '../features/auth/auth-api.ts';
import { useSignedOutEntry } from '../features/auth/guards.tsx';
import { storeLogin } from '../features/auth/session.ts';
import { TermsAndConditions } from '../features/auth/terms-and-conditions.tsx';
import { BotCheck, type BotCheckHandle } from '../shared/bot-check.tsx';
import { fieldError } from '../shared/field-error.tsx';
import { FormAlert } from '../shared/form-alert.tsx';
import { ApiRequestError } from '../shared/http.ts';
import { Page } from '../shared/page.tsx';
import { AnchorLink } from '../shared/router-link.tsx';
import { useSettledFocus } from '../shared/use-settled-focus.ts';

export const ACCOUNT_CREATED_NOTICE = 'Your account has been created. Please sign in.';

const PASSWORD_HINT =
  `At least ${LIMITS.passwordMinLength} characters, with an uppercase letter, a lowercase ` +
  `letter, a digit and one of ${PASSWORD_SPECIAL_CHARACTERS}`;

/** Sign up (subscriptions-and-payments §2 "Sign up"). */
export function RegistrationRoute() {
  const { hadToken } = useSignedOutEntry();
  if (hadToken) return <Navigate to="/profile" replace />;
  return (
    <Page title="Sign up">
      <RegistrationForm />
    </Page>
  );
}

export function RegistrationForm() {
  const navigate = useNavigate();
  const botCheck = useRef<BotCheckHandle>(null);
  const [altcha, setAltcha] = useState<string | null>(null);
  const [termsOpened, terms] = useDisclosure(false);

  const form = useForm({
    resolver: zodResolver(RegisterFormSchema),
    mode: 'onChange',
    criteriaMode: 'all',
    defaultValues: { email: '', password: '', confirmPassword: '', terms: false },
  });
  const { errors, dirtyFields, touchedFields, isSubmitted, isValid } = form.formState;
  const shown = (field: keyof RegisterForm) =>
    Boolean(dirtyFields[field] || touchedFields[field] || isSubmitted);

  const signUp = useMutation({
    mutationFn: async (
      values: RegisterForm & { altcha: string },
    ): Promise<LoginResponse | null> => {
      await register(values);
      // Sign-up success signs the person in (subscriptions-and-payments §4). If that second
      // step fails, the account still exists: send them to sign in by hand.
      try {
        return await login({ UserName: values.email, password: values.password });
      } catch {
        return null;
      }
    },
    onSuccess: async (session) => {
      if (session) {
        storeLogin(session);
        await navigate('/', { replace: true });
      } else {
        await navigate('/login', { replace: true, state: { notice: ACCOUNT_CREATED_NOTICE } });
      }
    },
    // The bot-check payload is single-use: solve a fresh challenge for the next attempt.
    onSettled: () => botCheck.current?.reset(),
  });
  const { buttonRef, resultRef } = useSettledFocus(signUp.isPending);

  const onSubmit = form.handleSubmit((values) => {
    if (altcha !== null) signUp.mutate({ ...values, altcha });
  });

  const serverError = signUp.error instanceof ApiRequestError ? signUp.error : null;
  const fieldProblems = serverError?.fieldErrors.map((problem) => problem.message) ?? [];

  return (
    <Stack gap="md">
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          {signUp.isError && (
            <FormAlert ref={resultRef} tone="error">
              <Text size="sm">{signUp.error.message}</Text>
              {fieldProblems.length > 0 && (
                <List size="sm" mt="xs">
                  {fieldProblems.map((problem) => (
                    <List.Item key={problem}>{problem}</List.Item>
                  ))}
                </List>
              )}
            </FormAlert>
          )}

          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            {...form.register('email')}
            error={fieldError(errors.email, shown('email'))}
          />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            description={PASSWORD_HINT}
            required
            {...form.register('password', { deps: ['confirmPassword'] })}
            error={fieldError(errors.password, shown('password'))}
          />
          <PasswordInput
            label="Confirm Password"
            autoComplete="new-password"
            required
            {...form.register('confirmPassword')}
            error={fieldError(errors.confirmPassword, shown('confirmPassword'))}
          />

          <Stack gap={4}>
            <Controller
              control={form.control}
              name="terms"
              render={({ field }) => (
                <Checkbox
                  ref={field.ref}
                  name={field.name}
                  checked={field.value}
                  onChange={(event) => field.onChange(event.currentTarget.checked)}
                  onBlur={field.onBlur}
                  label="I agree to the Terms and Conditions"
                  required
                  error={fieldError(errors.terms, shown('terms'))}
                />
              )}
            />
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={terms.open}
              ml={32}
              w="fit-content"
            >
              Read the Terms and Conditions
            </Anchor>
          </Stack>

          <BotCheck ref={botCheck} onPayload={setAltcha} />

          <Button
            ref={buttonRef}
            type="submit"
            disabled={!isValid || altcha === null}
            loading={signUp.isPending}
          >
            SIGN UP
          </Button>
        </Stack>
      </form>

      <Text size="sm">
        Already have an account? <AnchorLink to="/login">Sign in</AnchorLink>
      </Text>

      <Modal opened={termsOpened} onClose={terms.close} title="Terms and Conditions" size="lg">
        <TermsAndConditions />
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={terms.close}>
            Close
          </Button>
          <Button
            onClick={() => {
              form.setValue('terms', true, {
                shouldValidate: true,
                shouldDirty: true,
                shouldTouch: true,
              });
              terms.close();
            }}
          >
            I agree
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
