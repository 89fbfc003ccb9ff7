import { Stack, Title } from '@mantine/core';
import { isAdmin } from '@ratelens/core';
import { CouponsSection } from '../features/admin/catalogue-coupons.tsx';
import { OffersSection } from '../features/admin/catalogue-offers.tsx';
import { PlansSection } from '../features/admin/catalogue-plans.tsx';
import { NO_ACCESS_MESSAGE, RequireToken } from '../features/auth/guards.tsx';
import { useSession } from '../features/auth/use-session.ts';
import { FormAlert } from '../shared/form-alert.tsx';
import { Page } from '../shared/page.tsx';
import { usePageMeta } from '../shared/use-page-meta.ts';

export const CATALOGUE_META = {
  title: 'Catalogue',
  description: 'The plans sold on the Subscription page, the coupons and the custom offers.',
};

const SECTIONS = [
  { id: 'catalogue-plans', title: 'Plans', Section: PlansSection },
  { id: 'catalogue-coupons', title: 'Coupons', Section: CouponsSection },
  { id: 'catalogue-offers', title: 'Custom offers', Section: OffersSection },
] as const;

/**
 * What the Subscription page sells (issue 5): the plans with their prices, the coupons and the
 * per-account custom offers. Money is typed in dollars and kept in cents. The server answers 403
 * to anyone but an administrator.
 */
export function AdminCatalogueRoute() {
  usePageMeta(CATALOGUE_META);
  return (
    <RequireToken>
      <Page title={CATALOGUE_META.title} size="xl">
        <AdminCatalogue />
      </Page>
    </RequireToken>
  );
}

function AdminCatalogue() {
  const session = useSession();
  if (!isAdmin(session.role)) {
    return <FormAlert tone="error">{NO_ACCESS_MESSAGE}</FormAlert>;
  }
  return (
    <Stack gap="xl">
      {SECTIONS.map(({ id, title, Section }) => (
        <Stack key={id} gap="sm" component="section" aria-labelledby={id}>
          <Title order={2} id={id}>
            {title}
          </Title>
          <Section />
        </Stack>
      ))}
    </Stack>
  );
}
