import { ActionIcon, Button, Group, Popover, Stack, Text, TextInput } from '@mantine/core';
import { SEARCH_MESSAGES, type SendPdfBody } from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormAlert } from '../../shared/form-alert.tsx';
import { sendReport } from './search-api.ts';

/** Only +1 (§9 "Country code option"). */
export const COUNTRY_CODE = '+1';

interface TextReportButtonProps {
  /** The request without the number, built when the number is sent. */
  request: () => Omit<SendPdfBody, 'number'>;
}

const VALID_NUMBER = /^\d{10}$/;

/**
 * 'Text me a report' (§2 "/ooprates", §4 "Text me a report"): the button toggles a popup with the
 * fixed +1 country code, a digits-only number and a send button. After the send, whatever its
 * outcome, the popup closes and the number is cleared; the answer is shown beside the button.
 */
export function TextReportButton({ request }: TextReportButtonProps) {
  const [opened, setOpened] = useState(false);
  const [number, setNumber] = useState('');
  const [submitted, setSubmitted] = useState(false);

  const send = useMutation({
    mutationFn: (digits: string) => sendReport({ ...request(), number: digits }),
    onSettled: () => {
      setOpened(false);
      setNumber('');
      setSubmitted(false);
    },
  });

  // Digits only (§5 "Other rules"); the server wants the 10 digits of a US number.
  const invalid = (submitted || /\D/.test(number)) && !VALID_NUMBER.test(number);

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
              setSubmitted(true);
              if (VALID_NUMBER.test(number)) send.mutate(number);
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
                value={number}
                onChange={(event) => setNumber(event.currentTarget.value.trim())}
                inputMode="numeric"
                autoComplete="tel-national"
                maxLength={10}
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
      {send.isError && <FormAlert tone="error">{SEARCH_MESSAGES.smsFailed}</FormAlert>}
    </Stack>
  );
}

function SendIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M2.01 21 23 12 2.01 3 2 10l15 2-15 2z" />
    </svg>
  );
}
