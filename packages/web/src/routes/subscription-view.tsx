import { Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { PAYMENT_MESSAGES, type StateItem } from '@ratelens/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PlanLeadModal } from '../features/subscriptions/plan-lead-modal.tsx';
import {
  IndividualTiles,
  PlanTiles,
  Tile,
  TileGrid,
  groupPlans,
} from '../features/subscriptions/plan-tiles.tsx';
import { MAIL_SUBJECTS, mailtoHref } from '../features/subscriptions/sales-contact.ts';
import { DEFAULT_STATE, StateSelect, stateLabel } from '../features/subscriptions/state-select.tsx';
import { getPlans, subscriptionKeys } from '../features/subscriptions/subscriptions-api.ts';
import { InstallmentModal } from '../features/subscriptions/installment-modal.tsx';
import { usePlanCheckout } from '../features/subscriptions/use-plan-checkout.ts';
import { AttentionAlert } from '../shared/attention-alert.tsx';
import { FormAlert } from '../shared/form-alert.tsx';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { AnchorLink } from '../shared/router-link.tsx';

export const NO_PLANS_MESSAGE = 'No plans are offered at the moment.';

/** $75 per file, by arrangement (§9 "Specific-hospital pick"). */
const PICK_HOSPITALS_PRICE = '$75.00/File';

/** Subscription view: the public plans page (subscriptions-and-payments §2 "Subscription view"). */
export function SubscriptionViewRoute() {
  return (
    <Page title="Our plans" size="lg">
      <PublicPlans />
      <PlanLeadModal />
    </Page>
  );
}

function PublicPlans() {
  const [state, setState] = useState<StateItem>(DEFAULT_STATE);
  const stateId = state.stateID;
  // §2 "Eight plan slots": the old page read plans 1 to 8 one by one; the list shows every
  // plan an admin offers, in catalogue order.
  const list = useQuery({
    queryKey: subscriptionKeys.plans(stateId),
    queryFn: ({ signal }) => getPlans(stateId, signal),
  });
  const checkout = usePlanCheckout(stateId);
  const actions = { onCheckout: checkout.onCheckout, busyPlanId: checkout.busyPlanId };

  const plans = list.data ?? [];
  const pending = list.isPending;
  const failure = list.isError ? list : undefined;
  const groups = groupPlans(plans);

  return (
    <Stack gap="xl">
      <StateSelect label="Select State:" value={state} onChange={setState} />

      {checkout.message !== null && (
        <AttentionAlert key={checkout.message.at}>{checkout.message.text}</AttentionAlert>
      )}

      <Paper withBorder p="md" bg="indigo.0">
        <Group gap="md" justify="space-between">
          <Text fw={500}>{PAYMENT_MESSAGES.rxBanner}</Text>
          <AnchorLink to="/ourMission">Contact us for multi-state discounts</AnchorLink>
        </Group>
      </Paper>

      <Stack gap="md" component="section" aria-labelledby="plans-heading">
        <Title order={2} size="h3" id="plans-heading">
          Plans for {stateLabel(state)}
        </Title>
        {pending ? (
          <PageLoader label="Loading the plans..." />
        ) : plans.length === 0 && failure ? (
          <Stack gap="sm" align="flex-start">
            <FormAlert tone="error">{failure.error.message}</FormAlert>
            <Button variant="default" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </Stack>
        ) : plans.length === 0 ? (
          // Nothing failed: an empty catalogue is a fact, not an error.
          <Text>{NO_PLANS_MESSAGE}</Text>
        ) : (
          <>
            <PlanTiles groups={{ ...groups, individual: [] }} {...actions} />
            <TileGrid>
              <Tile
                title="Pick specific hospitals for Cost Comparison Tool"
                price={PICK_HOSPITALS_PRICE}
                action={
                  <Button
                    component="a"
                    href={mailtoHref(MAIL_SUBJECTS.pickHospitals)}
                    variant="outline"
                    aria-label="Contact Us about picking specific hospitals"
                  >
                    Contact Us
                  </Button>
                }
              >
                <Text size="sm">Choose the hospitals you compare; priced per hospital file.</Text>
              </Tile>
              <Tile title="Exciting Offer Coming Soon">
                <Text size="sm">A new plan is on its way. Check back soon.</Text>
              </Tile>
            </TileGrid>
          </>
        )}
      </Stack>

      {groups.individual.length > 0 && (
        <Stack gap="md" component="section" aria-labelledby="individual-heading">
          <Title order={2} size="h3" id="individual-heading">
            Individual Search Subscription
          </Title>
          <IndividualTiles plans={groups.individual} {...actions} />
        </Stack>
      )}

      <Stack gap="xs">
        <Text>{PAYMENT_MESSAGES.monthlyInvoice}</Text>
        <List size="sm">
          <List.Item>
            Purchases need an account: <AnchorLink to="/registration">sign up</AnchorLink> or{' '}
            <AnchorLink to="/login">sign in</AnchorLink>.
          </List.Item>
        </List>
      </Stack>

      <InstallmentModal
        plan={checkout.asking}
        onChoose={checkout.choosePayment}
        onClose={checkout.cancel}
      />
    </Stack>
  );
}
