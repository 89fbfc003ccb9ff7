import { Button, FileInput, Group, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { fieldError } from '../../shared/field-error.tsx';
import { FormAlert } from '../../shared/form-alert.tsx';
import { showServerFieldErrors } from '../../shared/server-field-errors.ts';
import { errorMessage } from '../../shared/http.ts';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';
import { createPartner } from './admin-api.ts';

/** What `POST /api/Partner` accepts for `image` (checked again, by content, on the server). */
export const PARTNER_LOGO = {
  maxBytes: 1024 * 1024,
  types: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'] as readonly string[],
  accept: 'image/png,image/jpeg,image/webp,image/svg+xml',
} as const;

/** The form's messages, worded as the server's (packages/server/src/partners). */
export const PARTNER_MESSAGES = {
  nameBlank: 'Name should not be blank.',
  nameTooLong: 'Name should not be more than 100 characters.',
  websiteBlank: 'Website should not be blank.',
  websiteHttps: 'Website must be an https:// address.',
  positionWhole: 'Position must be a whole number.',
  logoRequired: 'Choose a logo.',
  logoTooLarge: 'The logo must not be larger than 1 MB.',
  logoType: 'The logo must be a PNG, JPEG, WebP or SVG file.',
} as const;

function isHttpsUrl(value: string): boolean {
  if (!/^https:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

const m = PARTNER_MESSAGES;

interface PartnerFormValues {
  name: string;
  website: string;
  position: string;
  image: File | null;
}
type PartnerField = keyof PartnerFormValues;

/** The rules of each field, checked in the browser before anything is sent. */
const RULES = {
  name: (v: string) => {
    const name = v.trim();
    if (name === '') return m.nameBlank;
    return name.length <= 100 || m.nameTooLong;
  },
  website: (v: string) => {
    const website = v.trim();
    if (website === '') return m.websiteBlank;
    return isHttpsUrl(website) || m.websiteHttps;
  },
  position: (v: string) => {
    const position = v.trim();
    return (
      position === '' ||
      (/^\d+$/.test(position) && Number(position) <= 1_000_000) ||
      m.positionWhole
    );
  },
  image: (v: File | null) => {
    if (v === null) return m.logoRequired;
    if (v.size > PARTNER_LOGO.maxBytes) return m.logoTooLarge;
    // Some systems give an SVG no type; the server checks the content anyway.
    return v.type === '' || PARTNER_LOGO.types.includes(v.type) || m.logoType;
  },
} as const;

const EMPTY: PartnerFormValues = { name: '', website: '', position: '', image: null };
const FIELDS: readonly PartnerField[] = ['name', 'website', 'position', 'image'];

/**
 * 'Add a partner' (`POST /api/Partner`, multipart). The logo's size and type are checked before
 * anything is sent; success clears the form and refreshes the partner list.
 */
export function PartnerForm() {
  const queryClient = useQueryClient();
  const form = useForm<PartnerFormValues>({
    mode: 'onTouched',
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;

  const add = useMutation({
    mutationFn: createPartner,
    onSuccess: () => {
      form.reset(EMPTY);
      void queryClient.invalidateQueries({ queryKey: ['partners'] });
    },
    onError: (error) =>
      showServerFieldErrors(error, form.setError, (field) => FIELDS.find((f) => f === field)),
  });
  const { buttonRef, resultRef } = useSettledFocus(add.isPending);

  const onSubmit = form.handleSubmit((values) => {
    if (values.image === null) return;
    add.mutate({
      name: values.name.trim(),
      website: values.website.trim(),
      position: values.position.trim(),
      image: values.image,
    });
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Add a partner">
      <Stack gap="md">
        {add.isSuccess && (
          <FormAlert ref={resultRef} tone="success">
            {add.data.name} was added.
          </FormAlert>
        )}
        {add.isError && (
          <FormAlert ref={resultRef} tone="error">
            {errorMessage(add.error)}
          </FormAlert>
        )}

        <TextInput
          label="Name"
          required
          maxLength={100}
          description="Up to 100 characters"
          {...form.register('name', { validate: RULES.name })}
          error={fieldError(errors.name)}
        />
        <TextInput
          label="Website"
          type="url"
          inputMode="url"
          required
          placeholder="https://"
          description="The full address, starting with https://"
          {...form.register('website', { validate: RULES.website })}
          error={fieldError(errors.website)}
        />
        <TextInput
          label="Position"
          inputMode="numeric"
          description="Optional. A whole number; lower numbers are listed first."
          {...form.register('position', { validate: RULES.position })}
          error={fieldError(errors.position)}
        />
        <Controller
          control={form.control}
          name="image"
          rules={{ validate: RULES.image }}
          render={({ field }) => (
            <FileInput
              label="Logo"
              required
              name="image"
              description="PNG, JPEG, WebP or SVG, up to 1 MB"
              placeholder="Choose an image"
              accept={PARTNER_LOGO.accept}
              clearable
              // Mantine's clear button has no name of its own: screen readers would hear "button".
              clearButtonProps={{ 'aria-label': 'Remove the chosen logo' }}
              value={field.value}
              onChange={(file) =>
                form.setValue('image', file, {
                  shouldValidate: true,
                  shouldDirty: true,
                  shouldTouch: true,
                })
              }
              onBlur={field.onBlur}
              ref={field.ref}
              error={fieldError(errors.image)}
            />
          )}
        />

        <Group>
          <Button ref={buttonRef} type="submit" loading={add.isPending}>
            Add partner
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
