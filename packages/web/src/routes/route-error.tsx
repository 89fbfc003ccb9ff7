import { Text } from '@mantine/core';
import { Page } from '../shared/page.tsx';
import { AnchorLink } from '../shared/router-link.tsx';

/** Shown when a screen fails to render: a way out instead of a blank page. */
export function RouteError() {
  return (
    <Page title="Something went wrong">
      <Text>This page could not be shown. Please reload it, or go back to the home page.</Text>
      <AnchorLink to="/">Go to the home page</AnchorLink>
    </Page>
  );
}
