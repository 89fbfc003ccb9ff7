import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { EMAIL_NOT_VERIFIED_MESSAGE } from '@ratelens/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { getUserDetails } from '../features/auth/auth-api.ts';
import { RequireToken } from '../features/auth/guards.tsx';
import { useSession } from '../features/auth/use-session.ts';
import { SubscriptionCards } from '../features/subscriptions/subscription-cards.tsx';
import { FormAlert } from '../shared/form-alert.tsx';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { AnchorLink } from '../shared/router-link.tsx';

/** The spec scrolls to the EDI section this long after arriving with #uploadEdi (§9). */
const UPLOAD_EDI_SCROLL_DELAY_MS = 550;

/** Profile (search-and-accounts §2 "Profile"). */
export function ProfileRoute() {
  return (
    <RequireToken>
      <Page title="Profile" size="md">
        <Profile />
      </Page>
    </RequireToken>
  );
}

function Profile() {
  const session = useSession();
  const email = session.email ?? '';
  const { hash } = useLocation();
  const details = useQuery({
    queryKey: ['user-details', email],
    queryFn: () => getUserDetails(email),
  });

  const loaded = details.isSuccess;
  useEffect(() => {
    if (hash !== '#uploadEdi' || !loaded) return;
    const timer = window.setTimeout(() => {
      document.getElementById('uploadEdi')?.scrollIntoView({ behavior: 'smooth' });
    }, UPLOAD_EDI_SCROLL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [hash, loaded]);

  if (details.isPending) return <PageLoader />;
  if (details.isError) {
    return (
      <Stack gap="md" align="flex-start">
        <FormAlert tone="error">{details.error.message}</FormAlert>
        <Button variant="default" onClick={() => void details.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  }

  const user = details.data;
  return (
    <Stack gap="xl">
      <Card withBorder padding="lg">
        <Stack gap="xs">
          <Group gap="sm">
            <Text size="lg" fw={600} style={{ overflowWrap: 'anywhere' }}>
              Welcome, {user.userName}
            </Text>
            {user.emailConfirmed && (
              // Shade 9: white on teal.8 (the theme's shade) is 3.9:1 at the badge's 11 px bold
              // text, below WCAG AA's 4.5:1; on teal.9 it is 5:1.
              <Badge color="teal.9" variant="filled">
                Verified
              </Badge>
            )}
          </Group>
          {!user.emailConfirmed && (
            <Group gap="sm">
              <Text>{EMAIL_NOT_VERIFIED_MESSAGE}</Text>
              <AnchorLink to="/verifyEmail">Verify Now</AnchorLink>
            </Group>
          )}
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {user.emailID}
          </Text>
        </Stack>
      </Card>

      <Stack gap="sm" component="section" aria-labelledby="subscriptions-heading">
        <Title order={2} id="subscriptions-heading" size="h3">
          Subscriptions
        </Title>
        <SubscriptionCards userId={session.userID ?? ''} />
      </Stack>

      <Stack gap="sm" component="section" id="uploadEdi" aria-labelledby="upload-edi-heading">
        <Title order={2} id="upload-edi-heading" size="h3">
          EDI Files Uploads
        </Title>
        <Card withBorder padding="lg">
          <Text>
            Uploading EDI files (.edi) arrives in a later release of RateLens. Nothing can be
            uploaded here yet.
          </Text>
        </Card>
      </Stack>
    </Stack>
  );
}
