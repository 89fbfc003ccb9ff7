import { Stack, Text } from '@mantine/core';
import { EMAIL_CONFIRMED_MESSAGE } from '@ratelens/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { confirmEmail } from '../features/auth/auth-api.ts';
import { FormAlert } from '../shared/form-alert.tsx';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { AnchorLink, ButtonLink } from '../shared/router-link.tsx';

/** Confirm Email (subscriptions-and-payments §2): posts the e-mailed link's address and token. */
export function ConfirmEmailRoute() {
  const [params] = useSearchParams();
  const email = params.get('email') ?? params.get('Email');
  const token = params.get('token') ?? params.get('Token');

  return (
    <Page title="Confirm your e-mail address">
      {email && token ? (
        <ConfirmEmail email={email} token={token} />
      ) : (
        <Stack gap="md" align="flex-start">
          <Text>
            This page needs the link from the verification e-mail, and that link is missing or
            incomplete. Open the link in the e-mail again, or ask for a new one from your profile.
          </Text>
          <AnchorLink to="/profile">Go to Profile</AnchorLink>
        </Stack>
      )}
    </Page>
  );
}

function ConfirmEmail({ email, token }: { email: string; token: string }) {
  const queryClient = useQueryClient();
  // A query, not a mutation: StrictMode's second mount joins the request already in flight,
  // so the POST runs once, and the answer is kept for the life of the page.
  const confirmation = useQuery({
    queryKey: ['confirm-email', email, token],
    queryFn: () => confirmEmail({ Email: email, Token: token }),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });

  const confirmed = confirmation.isSuccess;
  useEffect(() => {
    // The profile's "not verified" line is out of date now.
    if (confirmed) void queryClient.invalidateQueries({ queryKey: ['user-details'] });
  }, [confirmed, queryClient]);

  if (confirmation.isPending) return <PageLoader />;
  if (confirmation.isError) return <FormAlert tone="error">{confirmation.error.message}</FormAlert>;
  return (
    <Stack gap="md" align="flex-start">
      <FormAlert tone="success">{EMAIL_CONFIRMED_MESSAGE}</FormAlert>
      <ButtonLink to="/profile">Go to Profile</ButtonLink>
    </Stack>
  );
}
