import { Button, Group, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { PricedCart, PricedItem } from '@ratelens/core';
import { CardList } from '../../shared/card-list.tsx';
import { LabelledFigure } from '../../shared/labelled-figure.tsx';
import { ScrollRegion } from '../../shared/scroll-region.tsx';
import {
  coverageOf,
  formatCents,
  installmentWording,
  orderQuantity,
  type PlanChoice,
} from './cart-pricing.ts';
import { lineKey, type CartCoupon } from './cart.ts';
import classes from './subscriptions.module.css';

interface OrderTableProps {
  choices: PlanChoice[];
  priced: PricedCart;
  coupon: CartCoupon | null;
  onRemove: (key: string) => void;
  /** No removing while a payment is under way. */
  disabled: boolean;
}

export const TOTAL_LABEL = 'TOTAL';

/** The spec's figure columns of an order line, in order: the table's and the cards' labels. */
const ORDER_FIGURES: readonly (readonly [
  string,
  (choice: PlanChoice, item: PricedItem) => string,
])[] = [
  ['No. of Files/Search', (choice) => orderQuantity(choice.plan)],
  ['Unit Price(USD)', (_, item) => formatCents(item.unitPriceCents)],
  ['Total Price(USD)', (_, item) => formatCents(item.totalPriceCents)],
  ['Final Price(USD)', (_, item) => formatCents(item.finalPriceCents)],
  ['Installment Cost', (_, item) => formatCents(item.installmentCents)],
  ['Maintenance Fee', (_, item) => formatCents(item.maintenanceCents)],
];

function describe(choice: PlanChoice, item: PricedItem): { title: string; terms: string } {
  const { plan } = choice;
  const offer = plan.customOfferId !== null ? ', custom offer' : '';
  const title = `${plan.subscriptionTitle} (${coverageOf(plan)}${offer})`;
  const terms = choice.installment
    ? `${installmentWording(item.schedule)}; the first today`
    : 'Paid once';
  return { title, terms };
}

/**
 * The order (subscriptions-and-payments §2 "Checkout", §4 "Cart", §9): one row per item with
 * every column of the spec, and the TOTAL charged today. A table from 75em up (its nine columns
 * need about 1,000 px); below, one card per item, so Remove is never off to the side. The figures
 * are core's priceCart; the server prices the order again.
 */
export function OrderTable(props: OrderTableProps) {
  return (
    <>
      <WideOrder {...props} />
      <OrderCards {...props} />
    </>
  );
}

/**
 * The coupon's lines above the TOTAL, so that they add up to it: what was due today without the
 * coupon, and what the coupon takes off today. For an item paid in installments that is what it
 * takes off the first payment (§9: "the displayed discount for installment items is divided by
 * 12"), so the whole discount over the year is said beside it when it differs.
 */
function couponLines(coupon: CartCoupon | null, priced: PricedCart) {
  if (!coupon || priced.discountCents === 0) return [];
  const today = `−${formatCents(priced.discountTodayCents)} today`;
  return [
    {
      label: 'Before the coupon',
      value: `${formatCents(priced.dueTodayCents + priced.discountTodayCents)} due today`,
    },
    {
      label: `Coupon ${coupon.couponCode}: ${coupon.couponDiscountPerc}% off annual subscriptions`,
      value:
        priced.discountTodayCents === priced.discountCents
          ? today
          : `${today} (−${formatCents(priced.discountCents)} in all)`,
    },
  ];
}

function RemoveButton({
  choice,
  onRemove,
  disabled,
}: Pick<OrderTableProps, 'onRemove' | 'disabled'> & { choice: PlanChoice }) {
  return (
    <Button
      size="xs"
      color="red"
      variant="light"
      disabled={disabled}
      onClick={() => onRemove(lineKey(choice.plan))}
      aria-label={`Remove ${choice.plan.subscriptionTitle} (${coverageOf(choice.plan)})`}
    >
      Remove
    </Button>
  );
}

function WideOrder({ choices, priced, coupon, onRemove, disabled }: OrderTableProps) {
  return (
    <ScrollRegion label="Order" minWidth={1000} visibleFrom="lg">
      <Table striped withTableBorder verticalSpacing="sm">
        <VisuallyHidden component="caption">
          Your order: each subscription with its prices, and the total due today
        </VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Subscription type</Table.Th>
            <Table.Th scope="col">Description</Table.Th>
            {ORDER_FIGURES.map(([label]) => (
              <Table.Th key={label} scope="col">
                {label}
              </Table.Th>
            ))}
            <Table.Th scope="col">
              <VisuallyHidden>Remove</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {choices.map((choice, index) => {
            const item = priced.items[index];
            if (!item) return null;
            const { title, terms } = describe(choice, item);
            return (
              <Table.Tr key={lineKey(choice.plan)}>
                <Table.Td>{choice.plan.subscriptionType}</Table.Td>
                <Table.Th scope="row" fw={400} className={classes.wrap}>
                  <Text fw={600} size="sm">
                    {title}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {terms}
                  </Text>
                </Table.Th>
                {ORDER_FIGURES.map(([label, figure]) => (
                  <Table.Td key={label}>{figure(choice, item)}</Table.Td>
                ))}
                <Table.Td>
                  <RemoveButton choice={choice} onRemove={onRemove} disabled={disabled} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
        <Table.Tfoot>
          {couponLines(coupon, priced).map((line) => (
            <Table.Tr key={line.label}>
              <Table.Th scope="row" colSpan={5} ta="right" fw={400}>
                {line.label}
              </Table.Th>
              <Table.Td colSpan={4}>{line.value}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Th scope="row" colSpan={5} ta="right">
              {TOTAL_LABEL}
            </Table.Th>
            <Table.Td colSpan={4} fw={700}>
              {formatCents(priced.dueTodayCents)} due today
            </Table.Td>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollRegion>
  );
}

function OrderCards({ choices, priced, coupon, onRemove, disabled }: OrderTableProps) {
  return (
    <Stack gap="sm" hiddenFrom="lg">
      <CardList label="Order" tableFrom="lg">
        {choices.map((choice, index) => {
          const item = priced.items[index];
          if (!item) return null;
          const { title, terms } = describe(choice, item);
          return (
            <Paper key={lineKey(choice.plan)} component="li" withBorder radius="md" p="md">
              <Stack gap={6}>
                <Text fw={600} className={classes.wrap}>
                  {title}
                </Text>
                <Text size="sm">
                  {choice.plan.subscriptionType}. {terms}.
                </Text>
                {ORDER_FIGURES.map(([label, figure]) => (
                  <LabelledFigure key={label} label={label}>
                    {figure(choice, item)}
                  </LabelledFigure>
                ))}
                <Group>
                  <RemoveButton choice={choice} onRemove={onRemove} disabled={disabled} />
                </Group>
              </Stack>
            </Paper>
          );
        })}
      </CardList>
      {couponLines(coupon, priced).map((line) => (
        <Group key={line.label} justify="space-between" wrap="nowrap" align="flex-start">
          <Text size="sm">{line.label}</Text>
          <Text size="sm" ta="right">
            {line.value}
          </Text>
        </Group>
      ))}
      <Group justify="space-between">
        <Text fw={700}>{TOTAL_LABEL}</Text>
        <Text fw={700}>{formatCents(priced.dueTodayCents)} due today</Text>
      </Group>
    </Stack>
  );
}
