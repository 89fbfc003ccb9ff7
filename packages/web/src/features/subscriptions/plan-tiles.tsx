import { Badge, Button, Card, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Subscription } from '@ratelens/core';
import type { ReactNode } from 'react';
import { coverageOf, formatCents } from './cart-pricing.ts';
import { MAIL_SUBJECTS, mailtoHref } from './sales-contact.ts';
import classes from './subscriptions.module.css';

/**
 * The plan tiles of /subscription and /subscriptionview (subscriptions-and-payments §2): state
 * plans with their per-file price and the state's counts, the all-states plan at $0 'Includes
 * Data Feed' with a Negotiable mail-to, and the Individual Search packs.
 */

export interface PlanGroups {
  state: Subscription[];
  national: Subscription[];
  individual: Subscription[];
}

/** §7: the individual tiles are the national search packs, cheapest first. */
export function groupPlans(plans: readonly Subscription[]): PlanGroups {
  const individual = plans
    .filter((plan) => plan.subscriptionType === 'Individual Search')
    .sort((a, b) => a.totalPriceCents - b.totalPriceCents);
  return {
    state: plans.filter((plan) => plan.accessType === 'State'),
    national: plans.filter(
      (plan) => plan.accessType !== 'State' && plan.subscriptionType !== 'Individual Search',
    ),
    individual,
  };
}

export interface TileActions {
  onCheckout: (plan: Subscription) => void;
  /** The plan whose checkout is being checked, to show its button busy. */
  busyPlanId: number | null;
}

function count(value: number, one: string, many: string): string {
  return `${value.toLocaleString('en-US')} ${value === 1 ? one : many}`;
}

export function TileGrid({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
      {children}
    </SimpleGrid>
  );
}

/** A tile: title, an optional type badge, the price, details and the action. */
export function Tile({
  title,
  badge,
  price,
  children,
  action,
}: {
  title: string;
  badge?: string;
  price?: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Card withBorder padding="lg" radius="md" className={classes.tile} component="article">
      <Stack gap="sm" className={classes.tileBody}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Title order={3} size="h4" className={classes.wrap}>
            {title}
          </Title>
          {badge && (
            <Badge variant="light" style={{ flexShrink: 0 }}>
              {badge}
            </Badge>
          )}
        </Group>
        {price && <Text className={classes.price}>{price}</Text>}
        {children}
      </Stack>
      {action && <Group mt="md">{action}</Group>}
    </Card>
  );
}

function CheckoutButton({
  plan,
  onCheckout,
  busyPlanId,
  disabled = false,
}: TileActions & { plan: Subscription; disabled?: boolean }) {
  return (
    <Button
      onClick={() => onCheckout(plan)}
      loading={busyPlanId === plan.subscriptionID}
      disabled={disabled}
      aria-label={`Checkout: ${plan.subscriptionTitle}`}
    >
      Checkout
    </Button>
  );
}

/** A state plan: total for the state's files, per-file price, files and hospitals of the state. */
export function StatePlanTile({ plan, ...actions }: TileActions & { plan: Subscription }) {
  const state = coverageOf(plan);
  const files = plan.totalFilesCountSpecificState;
  return (
    <Tile
      title={plan.subscriptionTitle}
      badge={plan.subscriptionType}
      price={formatCents(plan.totalPriceCents)}
      action={<CheckoutButton plan={plan} {...actions} disabled={files === 0} />}
    >
      <List size="sm" spacing={4}>
        <List.Item>{formatCents(plan.priceCents)} per file</List.Item>
        <List.Item>
          {count(files, 'file', 'files')} for {state}
        </List.Item>
        <List.Item>{count(plan.hospitalCount, 'hospital', 'hospitals')}</List.Item>
        {plan.includesDataFeed && <List.Item>Includes Data Feed</List.Item>}
      </List>
      {plan.priceDescription && <Text size="sm">{plan.priceDescription}</Text>}
      {files === 0 && (
        <Text size="sm" c="dimmed">
          No hospital files are loaded for {state} yet.
        </Text>
      )}
    </Tile>
  );
}

/** The all-states (national data access) plan: $0, Includes Data Feed, Negotiable by e-mail. */
export function NationalPlanTile({ plan, ...actions }: TileActions & { plan: Subscription }) {
  return (
    <Tile
      title={plan.subscriptionTitle}
      badge={plan.subscriptionType}
      price={formatCents(plan.totalPriceCents)}
      action={
        plan.negotiable ? (
          <Button
            component="a"
            href={mailtoHref(MAIL_SUBJECTS.negotiable)}
            variant="outline"
            aria-label={`Negotiable: e-mail us about ${plan.subscriptionTitle}`}
          >
            Negotiable
          </Button>
        ) : (
          <CheckoutButton plan={plan} {...actions} />
        )
      }
    >
      <List size="sm" spacing={4}>
        {plan.includesDataFeed && <List.Item>Includes Data Feed</List.Item>}
        <List.Item>{count(plan.totalFilesCountAllStates, 'file', 'files')} in all states</List.Item>
        <List.Item>
          {count(plan.totalHospitalCountAllStates, 'hospital', 'hospitals')} in all states
        </List.Item>
      </List>
      {plan.priceDescription && <Text size="sm">{plan.priceDescription}</Text>}
    </Tile>
  );
}

/** An Individual Search pack: its price and price description. */
export function IndividualPlanTile({ plan, ...actions }: TileActions & { plan: Subscription }) {
  return (
    <Tile
      title={plan.subscriptionTitle}
      badge={plan.subscriptionType}
      price={formatCents(plan.totalPriceCents)}
      action={<CheckoutButton plan={plan} {...actions} />}
    >
      {plan.priceDescription && <Text size="sm">{plan.priceDescription}</Text>}
    </Tile>
  );
}

/** The state plans, then the national ones, in the catalogue's order. */
export function PlanTiles({ groups, ...actions }: TileActions & { groups: PlanGroups }) {
  return (
    <TileGrid>
      {groups.state.map((plan) => (
        <StatePlanTile key={plan.subscriptionID} plan={plan} {...actions} />
      ))}
      {groups.national.map((plan) => (
        <NationalPlanTile key={plan.subscriptionID} plan={plan} {...actions} />
      ))}
    </TileGrid>
  );
}

export function IndividualTiles({ plans, ...actions }: TileActions & { plans: Subscription[] }) {
  return (
    <TileGrid>
      {plans.map((plan) => (
        <IndividualPlanTile key={plan.subscriptionID} plan={plan} {...actions} />
      ))}
    </TileGrid>
  );
}
