import { ActionIcon, Button, Group, Popover, Stack, Text, TextInput } from '@mantine/core';
import {
  SEARCH_MESSAGES,
  parsePhoneNumber,
  phoneNumberDigits,
  type SendPdfBody,
} from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { FormAlert } from '../../shared/form-alert.tsx';
import { ApiRequestError } from '../../shared/http.ts';
import { sendReport } from './search-api.ts';

/** Only +1 (§9 "Country code option"). */
export const COUNTRY_CODE = '+1';

interface TextReportButtonProps {
  /** The request without the number, built when the number is sent. */
  request: () => Omit<SendPdfBody, 'number'>;
}

/**
 * 'Text me a report' (§2 "/ooprates", §4 "Text me a report"): the button toggles a popup with the
 * fixed +1 country code, the number and a send button. After the send, whatever its outcome, the
 * popup closes and the number is cleared; the answer is shown beside the button.
 */
export function TextReportButton({ request }: TextReportButtonProps) {
  const [opened, setOpened] = useState(false);
  const [number, setNumber] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const send = useMutation({
    mutationFn: (digits: string) => sendReport({ ...request(), number: digits }),
    onSettled: () => {
      setOpened(false);
      setNumber('');
      setSubmitted(false);
    },
  });

  // The server's rule (core's PhoneNumberSchema). While typing, the message waits until the
  // entry cannot become a number: a character no number has, or more digits than a US number.
  const digits = parsePhoneNumber(number);
  const typed = phoneNumberDigits(number);
  const invalid = digits === null && (submitted || /\D/.test(typed) || typed.length > 10);

  return (
    <Stack gap="xs" align="flex-start">
      <Popover
        opened={opened}
        onChange={setOpened}
        position="bottom-start"
        trapFocus
        returnFocus
        withArrow
        shadow="md"
      >
        <Popover.Target>
          <Button
            variant="outline"
            onClick={() => {
              send.reset();
              setOpened((open) => !open);
            }}
            loading={send.isPending}
          >
            Text me a report
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (digits !== null) {
                setSubmitted(true);
                send.mutate(digits);
                return;
              }
              // The keyboard goes to the field, whose error is read with it (aria-describedby):
              // drawn first, so that the field names its error when it takes the focus.
              flushSync(() => setSubmitted(true));
              input.current?.focus();
            }}
          >
            <Group gap="xs" wrap="nowrap" align="flex-end" maw={320}>
              <TextInput
                label="Mobile number"
                description={`US numbers only: the country code is ${COUNTRY_CODE}.`}
                leftSection={
                  <Text size="sm" fw={600} c="dark">
                    {COUNTRY_CODE}
                  </Text>
                }
                ref={input}
                value={number}
                // No maxLength: it would cut 1 907 555 1234 to a wrong number without a word.
                onChange={(event) => setNumber(event.currentTarget.value)}
                inputMode="numeric"
                autoComplete="tel-national"
                error={invalid ? SEARCH_MESSAGES.invalidNumber : undefined}
                style={{ flex: 1 }}
                data-autofocus
              />
              <ActionIcon
                type="submit"
                size={36}
                aria-label="Send the report by text message"
                loading={send.isPending}
                mb={invalid ? 26 : 0}
              >
                <SendIcon />
              </ActionIcon>
            </Group>
          </form>
        </Popover.Dropdown>
      </Popover>
      {send.isSuccess && <FormAlert tone="success">{send.data.message}</FormAlert>}
      {send.isError && <FormAlert tone="error">{sendFailure(send.error)}</FormAlert>}
    </Stack>
  );
}

/**
 * The spec's message for a send that failed (§8), except a refusal for too many texts (429: the
 * day's cap, or searches still running), whose server's words say when to try again.
 */
function sendFailure(error: Error): string {
  if (error instanceof ApiRequestError && error.status === 429 && error.serverMessage !== null) {
    return error.serverMessage;
  }
  return SEARCH_MESSAGES.smsFailed;
}

function SendIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M2.01 21 23 12 2.01 3 2 10l15 2-15 2z" />
    </svg>
  );
}
