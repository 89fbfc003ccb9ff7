import { Text } from '@mantine/core';
import { Page } from '../shared/page.tsx';
import { AnchorLink } from '../shared/router-link.tsx';

/** Every route that does not exist, including screens of later releases. */
export function NotFoundRoute() {
  return (
    <Page title="Page not found">
      <Text>The page you asked for does not exist, or is not available yet.</Text>
      <AnchorLink to="/">Go to the home page</AnchorLink>
    </Page>
  );
}
