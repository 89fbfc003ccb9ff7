import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageLoader } from '../../shared/page-loader.tsx';
import { NewTabLink } from '../../shared/router-link.tsx';
import { listPartners } from './public-api.ts';

/**
 * The partner logos (subscriptions-and-payments §2 "Partners"). A failed load is silent (§8):
 * the page keeps its heading and introduction and shows no error.
 */
export function PartnerGrid() {
  const partners = useQuery({
    queryKey: ['partners'],
    queryFn: ({ signal }) => listPartners(signal),
    staleTime: 10 * 60 * 1000,
  });

  if (partners.isPending) return <PageLoader label="Loading partners…" />;
  if (partners.isError) return null;
  if (partners.data.length === 0) {
    return <Text c="dimmed">Our partners will be listed here.</Text>;
  }

  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="md" component="ul" p={0} m={0}>
      {partners.data.map((partner) => (
        <Paper
          key={partner.id}
          component="li"
          withBorder
          radius="md"
          p="md"
          style={{ listStyle: 'none' }}
        >
          <NewTabLink
            href={partner.website}
            display="flex"
            style={{ justifyContent: 'center', alignItems: 'center', height: '100%' }}
          >
            <img
              src={partner.imageurl}
              alt={partner.name}
              width={partner.imageWidth}
              height={partner.imageHeight}
              loading="lazy"
              decoding="async"
              style={{ maxWidth: '100%', height: 'auto' }}
            />
          </NewTabLink>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
