import { Checkbox, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import type { OrganisationInput, OrganisationView } from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { fieldError } from '../../shared/field-error.tsx';
import { FormAlert } from '../../shared/form-alert.tsx';
import { showServerFieldErrors } from '../../shared/server-field-errors.ts';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';
import { adminErrorMessage, saveOrganisation } from './admin-api.ts';
import {
  NEW_ORGANISATION,
  formFieldOf,
  formValuesOf,
  organisationResolver,
  splitEmails,
  type OrganisationFormValues,
} from './organisation-values.ts';
import { FormActions } from './form-actions.tsx';

/** What the modal edits: a new organisation, or an existing one. */
export type OrganisationTarget = { kind: 'new' } | { kind: 'edit'; organisation: OrganisationView };

interface OrganisationModalProps {
  target: OrganisationTarget | null;
  onClose: () => void;
  onSaved: (saved: OrganisationView, target: OrganisationTarget) => void;
}

/** 'Add organisation' and 'Edit organisation', in a modal over the list. */
export function OrganisationModal({ target, onClose, onSaved }: OrganisationModalProps) {
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      title={target?.kind === 'edit' ? 'Edit organisation' : 'Add organisation'}
      size="lg"
      centered
    >
      {target !== null && (
        <OrganisationForm
          key={target.kind === 'edit' ? target.organisation.id : 'new'}
          target={target}
          onCancel={onClose}
          onSaved={(saved) => onSaved(saved, target)}
        />
      )}
    </Modal>
  );
}

interface OrganisationFormProps {
  target: OrganisationTarget;
  onCancel: () => void;
  onSaved: (saved: OrganisationView) => void;
}

const FLAGS = [
  { name: 'employerAccess', label: 'Employer access (members see the standard report)' },
  { name: 'ocrAccess', label: 'OCR access' },
  { name: 'employerOcr', label: 'Employer pays for OCR' },
] as const;

/**
 * The organisation's fields, checked with core's OrganisationInputSchema before anything is sent.
 * The server's refusal (409: an e-mail already belongs to another organisation; 400: field
 * messages) is shown in the form, which keeps what was typed.
 */
function OrganisationForm({ target, onCancel, onSaved }: OrganisationFormProps) {
  const editing = target.kind === 'edit' ? target.organisation : null;
  const form = useForm<OrganisationFormValues, unknown, OrganisationInput>({
    resolver: organisationResolver,
    mode: 'onTouched',
    defaultValues: editing ? formValuesOf(editing) : NEW_ORGANISATION,
  });
  const { errors } = form.formState;
  const memberText = useWatch({ control: form.control, name: 'memberEmails' });
  const memberCount = new Set(splitEmails(memberText.toLowerCase())).size;

  const save = useMutation({
    mutationFn: (input: OrganisationInput) => saveOrganisation(input, editing?.id ?? null),
    onSuccess: onSaved,
    onError: (error) => showServerFieldErrors(error, form.setError, formFieldOf),
  });

  const { buttonRef, resultRef } = useSettledFocus(save.isPending);
  const onSubmit = form.handleSubmit((input) => save.mutate(input));

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      aria-label={editing ? `Edit ${editing.name}` : 'Add organisation'}
    >
      <Stack gap="md">
        {save.isError && (
          <FormAlert ref={resultRef} tone="error">
            {adminErrorMessage(save.error)}
          </FormAlert>
        )}

        <TextInput
          label="Name"
          required
          maxLength={120}
          data-autofocus
          {...form.register('name')}
          error={fieldError(errors.name)}
        />
        <TextInput
          label="Account e-mail"
          type="email"
          required
          description="The employer's own account"
          {...form.register('accountEmail')}
          error={fieldError(errors.accountEmail)}
        />

        <Stack gap="xs" component="fieldset" m={0} p={0} style={{ border: 0 }}>
          <legend style={{ padding: 0, marginBottom: 'var(--mantine-spacing-xs)' }}>Access</legend>
          {FLAGS.map((flag) => (
            <Controller
              key={flag.name}
              control={form.control}
              name={flag.name}
              render={({ field }) => (
                <Checkbox
                  label={flag.label}
                  name={field.name}
                  checked={field.value}
                  onChange={(event) => field.onChange(event.currentTarget.checked)}
                  onBlur={field.onBlur}
                  ref={field.ref}
                />
              )}
            />
          ))}
        </Stack>

        <Textarea
          label="Member e-mails"
          description={`One per line, or separated by commas. ${
            memberCount === 1 ? '1 address' : `${memberCount} addresses`
          }.`}
          rows={6}
          resize="vertical"
          spellCheck={false}
          autoCapitalize="none"
          {...form.register('memberEmails')}
          error={fieldError(errors.memberEmails)}
        />

        <FormActions
          submitRef={buttonRef}
          submitLabel={editing ? 'Save changes' : 'Add organisation'}
          onCancel={onCancel}
          pending={save.isPending}
        />
      </Stack>
    </form>
  );
}
