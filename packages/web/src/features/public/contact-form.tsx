import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  CloseButton,
  FileInput,
  Group,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import {
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  FEEDBACK_FILE,
  FeedbackSchema,
  type Feedback,
} from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { fieldError } from '../../shared/field-error.tsx';
import { FormAlert } from '../../shared/form-alert.tsx';
import { errorMessage } from '../../shared/http.ts';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';
import { saveFeedback, uploadFeedbackFile } from './public-api.ts';

type TextField = Exclude<keyof Feedback, 'fileName'>;

const EMPTY: Feedback = {
  FirstName: '',
  LastName: '',
  email: '',
  subject: '',
  message: '',
  fileName: '',
};

const MAX_MEGABYTES = FEEDBACK_FILE.maxBytes / (1024 * 1024);
const FILE_TOO_LARGE = `The file must not be larger than ${MAX_MEGABYTES} MB.`;

/**
 * The contact form of /ourMission (search-and-accounts §2, §4 "Forms", §5, §8). The rules and
 * their messages are core's FeedbackSchema; a chosen file is uploaded at once and its token is
 * sent as `fileName`.
 */
export function ContactForm() {
  const form = useForm({
    resolver: zodResolver(FeedbackSchema),
    mode: 'onChange',
    criteriaMode: 'all',
    defaultValues: EMPTY,
  });
  const { errors, dirtyFields, touchedFields, isSubmitted, isValid } = form.formState;
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const fileField = useRef<HTMLButtonElement>(null);

  const upload = useMutation({ mutationFn: (chosen: File) => uploadFeedbackFile(chosen) });
  const send = useMutation({
    mutationFn: saveFeedback,
    onSuccess: () => {
      // search-and-accounts §4 "Forms": success clears the form, attachment included.
      form.reset(EMPTY);
      setFile(null);
      upload.reset();
    },
  });
  const { buttonRef, resultRef } = useSettledFocus(send.isPending);

  /**
   * §5: the first error of an empty required field is 'This field is required'; the schema's own
   * rules ("should not be blank", "should be alphabetic") speak once something is typed. Hidden
   * until the field is touched or the form submitted.
   */
  const errorFor = (field: TextField) => {
    if (!(dirtyFields[field] || touchedFields[field] || isSubmitted)) return undefined;
    // Every text field is required, so an empty one is wrong whether or not it was validated.
    const error: FieldError | undefined =
      form.getValues(field) === ''
        ? { type: 'required', message: CONTACT_MESSAGES.required }
        : errors[field];
    return fieldError(error);
  };

  const chooseFile = (chosen: File | null) => {
    setFile(chosen);
    setFileProblem(null);
    form.setValue('fileName', '', { shouldValidate: true });
    upload.reset();
    if (chosen === null) return;
    if (chosen.size > FEEDBACK_FILE.maxBytes) {
      setFileProblem(FILE_TOO_LARGE);
      setFile(null);
      return;
    }
    upload.mutate(chosen, {
      onSuccess: (token) => form.setValue('fileName', token, { shouldValidate: true }),
      onError: () => setFile(null),
    });
  };

  const onSubmit = form.handleSubmit((values) => send.mutate(values));
  const uploadError = fileProblem ?? (upload.isError ? errorMessage(upload.error) : null);

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        {send.isSuccess && (
          <FormAlert ref={resultRef} tone="success">
            {send.data.message}
          </FormAlert>
        )}
        {send.isError && (
          <FormAlert ref={resultRef} tone="error">
            {errorMessage(send.error)}
          </FormAlert>
        )}

        <Group grow align="flex-start" wrap="wrap">
          <TextInput
            label="First Name"
            autoComplete="given-name"
            required
            miw={200}
            {...form.register('FirstName')}
            error={errorFor('FirstName')}
          />
          <TextInput
            label="Last Name"
            autoComplete="family-name"
            required
            miw={200}
            {...form.register('LastName')}
            error={errorFor('LastName')}
          />
        </Group>
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          {...form.register('email')}
          error={errorFor('email')}
        />
        <TextInput
          label="Subject"
          required
          description={`Up to ${CONTACT_LIMITS.subject} characters`}
          {...form.register('subject')}
          error={errorFor('subject')}
        />
        <Textarea
          label="Message"
          required

          rows={5}
          description={`Up to ${CONTACT_LIMITS.message} characters`}
          {...form.register('message')}
          error={errorFor('message')}
        />

        <Stack gap={4}>
          <FileInput
            label="Attachment (optional)"
            description={`A de-identified claims file (CSV, Excel, PDF or EDI), up to ${MAX_MEGABYTES} MB. It is uploaded as soon as you choose it.`}
            placeholder="Choose a file"
            accept={FEEDBACK_FILE.accept}
            ref={fileField}
            value={file}
            onChange={chooseFile}
            disabled={upload.isPending}
            error={uploadError}
          />
          {upload.isPending && (
            <Text size="sm" role="status">
              Uploading…
            </Text>
          )}
          {upload.isSuccess && file && (
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" role="status" style={{ overflowWrap: 'anywhere' }}>
                Attached: {file.name}
              </Text>
              <CloseButton
                size="sm"
                aria-label={`Remove ${file.name}`}
                onClick={() => {
                  chooseFile(null);
                  // The button goes with the file: the keyboard goes to the field, not the top.
                  fileField.current?.focus();
                }}
              />
            </Group>
          )}
        </Stack>

        <Group>
          <Button
            ref={buttonRef}
            type="submit"
            disabled={!isValid || upload.isPending || send.isPending}
            loading={send.isPending}
          >
            Send message
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
