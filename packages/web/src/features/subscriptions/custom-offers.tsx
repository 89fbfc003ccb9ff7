import { Button, Table, VisuallyHidden } from '@mantine/core';
import type { Subscription } from '@ratelens/core';
import { ScrollRegion } from '../../shared/scroll-region.tsx';
import { coverageOf, formatCents } from './cart-pricing.ts';
import type { TileActions } from './plan-tiles.tsx';
import classes from './subscriptions.module.css';

/** 'Customized Offer For You' (subscriptions-and-payments §2): offers made to this account. */
export function CustomOffers({
  offers,
  onCheckout,
  busyPlanId,
}: TileActions & { offers: Subscription[] }) {
  return (
    <ScrollRegion label="Custom offers" minWidth={560}>
      <Table striped withTableBorder verticalSpacing="sm">
        <VisuallyHidden component="caption">Offers made to your account</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Subscription</Table.Th>
            <Table.Th scope="col">For</Table.Th>
            <Table.Th scope="col">Type</Table.Th>
            <Table.Th scope="col">Price(USD)</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Action</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {offers.map((offer) => (
            <Table.Tr key={offer.customOfferId}>
              <Table.Th scope="row" fw={600} className={classes.wrap}>
                {offer.subscriptionTitle}
              </Table.Th>
              <Table.Td>{coverageOf(offer)}</Table.Td>
              <Table.Td>{offer.subscriptionType}</Table.Td>
              <Table.Td>{formatCents(offer.totalPriceCents)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  onClick={() => onCheckout(offer)}
                  loading={busyPlanId === offer.subscriptionID}
                  aria-label={`Checkout: ${offer.subscriptionTitle} offer for ${coverageOf(offer)}`}
                >
                  Checkout
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}
