import { Box, Container, Text } from '@mantine/core';
import classes from './layout.module.css';

/** The footer with the product's copyright line (subscriptions-and-payments §1, §9: 2021). */
export function AppFooter() {
  return (
    <Box component="footer" className={classes.footer}>
      <Container size="xl" py="md">
        <Text size="sm" c="dimmed">
          © 2021 RateLens. All rights reserved.
        </Text>
      </Container>
    </Box>
  );
}
