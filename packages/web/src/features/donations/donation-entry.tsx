import { Anchor, Button, Group, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { EmailSchema, OTP_LENGTH } from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { BotCheck, type BotCheckHandle } from '../../shared/bot-check.tsx';
import { FormAlert } from '../../shared/form-alert.tsx';
import { errorMessage } from '../../shared/http.ts';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';
import { storeDonor } from './donation-session.ts';
import { sendDonationCode, verifyDonationCode } from './donations-api.ts';

/**
 * The donation entry (search-and-accounts §2 "Donation entry", §4 "Donation", §8): an e-mail
 * (with the bot check the other public forms use), then the four-digit code from the e-mail in
 * four boxes that move on as digits are typed, then /donation. Rendered inside the Donate dialog.
 */
export function DonationEntry({ onDone }: { onDone: () => void }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  return sent ? (
    <CodeStep email={email} onDone={onDone} onRestart={() => setSent(false)} />
  ) : (
    <EmailStep
      initialEmail={email}
      onSent={(to) => {
        setEmail(to);
        setSent(true);
      }}
    />
  );
}

function EmailStep({
  initialEmail,
  onSent,
}: {
  initialEmail: string;
  onSent: (email: string) => void;
}) {
  const botCheck = useRef<BotCheckHandle>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const [altcha, setAltcha] = useState<string | null>(null);
  const [email, setEmail] = useState(initialEmail);
  const [touched, setTouched] = useState(false);
  const parsed = EmailSchema.safeParse(email);
  const emailError = touched && !parsed.success ? parsed.error.issues[0]?.message : undefined;

  // The dialog's focus trap runs when it opens, before this lazily loaded step is there to take
  // the focus (it went to Close): the step takes it when it arrives.
  useEffect(() => emailInput.current?.focus(), []);

  const send = useMutation({
    mutationFn: (input: { email: string; altcha: string }) =>
      sendDonationCode(input.email, input.altcha),
    onSuccess: (_result, input) => onSent(input.email),
    // A bot-check payload is good for one request.
    onSettled: () => botCheck.current?.reset(),
  });
  // A sent code moves on to the code step, whose first box takes the focus; a refusal stays here.
  const { buttonRef, resultRef } = useSettledFocus(send.isPending);

  return (
    <form
      noValidate
      aria-label="Donation e-mail"
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (parsed.success && altcha !== null) send.mutate({ email: parsed.data, altcha });
      }}
    >
      <Stack gap="md">
        <Text size="sm">
          Enter your e-mail address. We will send you a {OTP_LENGTH}-digit code to confirm it.
        </Text>
        {send.isError && (
          <FormAlert ref={resultRef} tone="error">
            {errorMessage(send.error)}
          </FormAlert>
        )}
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          data-autofocus
          ref={emailInput}
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          onBlur={() => setTouched(true)}
          error={emailError}
        />
        <BotCheck ref={botCheck} onPayload={setAltcha} />
        <Group justify="flex-end">
          <Button ref={buttonRef} type="submit" disabled={altcha === null} loading={send.isPending}>
            Send code
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function CodeStep({
  email,
  onDone,
  onRestart,
}: {
  email: string;
  onDone: () => void;
  onRestart: () => void;
}) {
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const firstDigit = useRef<HTMLInputElement>(null);

  const verify = useMutation({
    mutationFn: (otp: string) => verifyDonationCode(email, otp),
    onSuccess: async (donationToken) => {
      storeDonor({ email, donationToken });
      onDone();
      await navigate('/donation');
    },
    onError: () => setCode(''),
  });

  // A wrong code empties the boxes, which were disabled while it was checked (so the focus left
  // them): the first box takes the focus back for the next try.
  useEffect(() => {
    if (verify.isError) firstDigit.current?.focus();
  }, [verify.isError]);

  const submit = (otp: string) => {
    if (otp.length === OTP_LENGTH && !verify.isPending) verify.mutate(otp);
  };

  return (
    <form
      noValidate
      aria-label="Donation code"
      onSubmit={(event) => {
        event.preventDefault();
        submit(code);
      }}
    >
      <Stack gap="md">
        <Text size="sm" role="status" style={{ overflowWrap: 'anywhere' }}>
          We sent a {OTP_LENGTH}-digit code to {email}. Enter it below.
        </Text>
        {verify.isError && <FormAlert tone="error">{errorMessage(verify.error)}</FormAlert>}
        <Stack gap={6} role="group" aria-labelledby="donation-code-label">
          <Text id="donation-code-label" size="sm" fw={500}>
            Code from the e-mail
          </Text>
          <PinInput
            ref={firstDigit}
            length={OTP_LENGTH}
            type="number"
            oneTimeCode
            value={code}
            onChange={setCode}
            onComplete={submit}
            disabled={verify.isPending}
            error={verify.isError}
            getInputProps={(index) => ({
              'aria-label': `Digit ${index + 1} of ${OTP_LENGTH}`,
              autoFocus: index === 0,
            })}
          />
        </Stack>
        <Group justify="space-between" align="center">
          <Anchor component="button" type="button" size="sm" onClick={onRestart}>
            Send a new code
          </Anchor>
          <Button type="submit" disabled={code.length !== OTP_LENGTH} loading={verify.isPending}>
            Verify
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
