import { Button, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { requestEmailVerification } from '../features/auth/auth-api.ts';
import { RequireToken } from '../features/auth/guards.tsx';
import { useSession } from '../features/auth/use-session.ts';
import { FormAlert } from '../shared/form-alert.tsx';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { AnchorLink } from '../shared/router-link.tsx';

/** Verify Email (subscriptions-and-payments §2): asks the server to send the verification mail. */
export function VerifyEmailRoute() {
  return (
    <RequireToken>
      <Page title="Verify your e-mail address">
        <VerifyEmail />
      </Page>
    </RequireToken>
  );
}

function VerifyEmail() {
  const email = useSession().email ?? '';
  // Each fetch sends an e-mail: never refetch by itself, never retry.
  const verification = useQuery({
    queryKey: ['email-verification', email],
    queryFn: () => requestEmailVerification(email),
    staleTime: Infinity,
    retry: false,
  });

  if (verification.isPending) return <PageLoader />;
  if (verification.isError) {
    return (
      <Stack gap="md" align="flex-start">
        <FormAlert tone="error">{verification.error.message}</FormAlert>
        <Button variant="default" onClick={() => void verification.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  }
  // The server's message says what it did: sent the link (naming the address), or nothing
  // because the address is verified already. Only that is said.
  return (
    <Stack gap="md" align="flex-start">
      <FormAlert tone="success">
        {verification.data.message || 'An e-mail has been sent to your registered address.'}
      </FormAlert>
      <AnchorLink to="/profile">Back to your profile</AnchorLink>
    </Stack>
  );
}
