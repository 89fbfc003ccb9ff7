import { Box, Container, Group, Text } from '@mantine/core';
import { DonateButton } from '../features/donations/donate-button.tsx';
import { AnchorLink } from '../shared/router-link.tsx';
import classes from './layout.module.css';

const FOOTER_LINKS = [
  { label: 'Privacy Policy', to: '/privacy-policy' },
  { label: 'Terms and Conditions', to: '/terms-condition' },
  { label: 'Use cases', to: '/useCases' },
  { label: 'Our Mission', to: '/ourMission' },
] as const;

/**
 * The footer: copyright line (subscriptions-and-payments §1, §9: 2021), the legal links, and the
 * Donate entry, which both header variants share this way.
 */
export function AppFooter() {
  return (
    <Box component="footer" className={classes.footer}>
      <Container size="xl" py="md">
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            © 2021 RateLens. All rights reserved.
          </Text>
          <Group component="nav" aria-label="Footer" gap="md">
            {FOOTER_LINKS.map((link) => (
              <AnchorLink key={link.to} to={link.to} size="sm">
                {link.label}
              </AnchorLink>
            ))}
            <DonateButton />
          </Group>
        </Group>
      </Container>
    </Box>
  );
}
