import { Box, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import { SPEC_MESSAGES } from '@ratelens/core';
import { useEffect } from 'react';
import { useSession } from '../features/auth/use-session.ts';
import { ButtonLink } from '../shared/router-link.tsx';

/** The popup text of search-and-accounts §2 "Home", shown inline for now. */
export const SIGN_IN_FIRST_MESSAGE = SPEC_MESSAGES.signInFirst;

/** Home: the rate-search hero. The search itself arrives with its own issue. */
export function HomeRoute() {
  const signedIn = useSession().token !== null;

  useEffect(() => {
    document.title = 'RateLens: hospital prices in the open';
  }, []);

  return (
    <>
      <Box bg="indigo.0" py={48}>
        <Container size="md">
          <Stack gap="md">
            <Title order={1}>Know what your care costs before you go</Title>
            <Text size="lg">
              Lower negotiated rates mean lower out-of-pocket cost. RateLens shows the rates
              hospitals have negotiated with health plans, by state, metro area, medical code and
              billing class, so you can see what you would pay.
            </Text>
          </Stack>
        </Container>
      </Box>

      <Container size="md" py="xl">
        {signedIn ? (
          <Card withBorder padding="lg">
            <Stack gap="xs">
              <Title order={2} size="h3">
                Rate search
              </Title>
              <Text>
                Searching rates by state, metro area, medical code and billing class is coming to
                this page soon.
              </Text>
            </Stack>
          </Card>
        ) : (
          <Card withBorder padding="lg" aria-labelledby="sign-in-first">
            <Stack gap="md">
              <Title order={2} size="h3" id="sign-in-first">
                {SIGN_IN_FIRST_MESSAGE}
              </Title>
              <Text>Rate search is for signed-in members.</Text>
              <Group gap="sm">
                <ButtonLink to="/registration">Create New Account</ButtonLink>
                <ButtonLink to="/login" variant="outline">
                  Already have a account
                </ButtonLink>
              </Group>
            </Stack>
          </Card>
        )}
      </Container>
    </>
  );
}
