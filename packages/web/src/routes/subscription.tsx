import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { PAYMENT_MESSAGES, type StateItem } from '@ratelens/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate } from 'react-router';
import { useSession } from '../features/auth/use-session.ts';
import { CustomOffers } from '../features/subscriptions/custom-offers.tsx';
import { IndividualTiles, PlanTiles, groupPlans } from '../features/subscriptions/plan-tiles.tsx';
import { MAIL_SUBJECTS, mailtoHref } from '../features/subscriptions/sales-contact.ts';
import { DEFAULT_STATE, StateSelect, stateLabel } from '../features/subscriptions/state-select.tsx';
import {
  getCustomOffers,
  getPlans,
  subscriptionKeys,
} from '../features/subscriptions/subscriptions-api.ts';
import { InstallmentModal } from '../features/subscriptions/installment-modal.tsx';
import { usePlanCheckout } from '../features/subscriptions/use-plan-checkout.ts';
import { AttentionAlert } from '../shared/attention-alert.tsx';
import { FormAlert } from '../shared/form-alert.tsx';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { AnchorLink } from '../shared/router-link.tsx';

/**
 * Subscription (subscriptions-and-payments §2 "Subscription", §4 "Plan list"): the signed-in
 * plans page. Visitors without a session see the public plans page instead.
 */
export function SubscriptionRoute() {
  const session = useSession();
  if (session.token === null || session.userID === null)
    return <Navigate to="/subscriptionview" replace />;
  return (
    <Page title="Subscription" size="lg">
      <SubscriptionPlans userId={session.userID} />
    </Page>
  );
}

function SubscriptionPlans({ userId }: { userId: string }) {
  const [state, setState] = useState<StateItem>(DEFAULT_STATE);
  const stateId = state.stateID;
  const plans = useQuery({
    queryKey: subscriptionKeys.plans(stateId),
    queryFn: ({ signal }) => getPlans(stateId, signal),
  });
  const offers = useQuery({
    queryKey: subscriptionKeys.offers(userId, stateId),
    queryFn: ({ signal }) => getCustomOffers(userId, stateId, signal),
  });
  const checkout = usePlanCheckout(stateId);
  const actions = { onCheckout: checkout.onCheckout, busyPlanId: checkout.busyPlanId };
  const groups = groupPlans(plans.data ?? []);

  return (
    <Stack gap="xl">
      <StateSelect label="State" value={state} onChange={setState} />

      {checkout.message !== null && (
        <AttentionAlert key={checkout.message.at}>{checkout.message.text}</AttentionAlert>
      )}

      <Stack gap="md" component="section" aria-labelledby="state-plans-heading">
        <Title order={2} size="h3" id="state-plans-heading">
          Plans for {stateLabel(state)}
        </Title>
        {plans.isPending ? (
          <PageLoader label="Loading the plans..." />
        ) : plans.isError ? (
          // §4: a failed load blanks the tiles.
          <Stack gap="sm" align="flex-start">
            <FormAlert tone="error">{plans.error.message}</FormAlert>
            <Button variant="default" onClick={() => void plans.refetch()}>
              Try again
            </Button>
          </Stack>
        ) : (
          <PlanTiles groups={{ ...groups, individual: [] }} {...actions} />
        )}
        <Group gap="md">
          <Button component="a" href={mailtoHref(MAIL_SUBJECTS.tryVindex)} variant="outline">
            Try Vindex (employers only)
          </Button>
          <AnchorLink to="/ourMission">Contact us for multi-state discounts</AnchorLink>
        </Group>
      </Stack>

      {groups.individual.length > 0 && (
        <Stack gap="md" component="section" aria-labelledby="individual-heading">
          <Title order={2} size="h3" id="individual-heading">
            Individual Search Subscription
          </Title>
          <Text>Rate searches in any state, for one year.</Text>
          <IndividualTiles plans={groups.individual} {...actions} />
        </Stack>
      )}

      {offers.data && offers.data.length > 0 && (
        <Stack gap="md" component="section" aria-labelledby="offers-heading">
          <Title order={2} size="h3" id="offers-heading">
            Customized Offer For You
          </Title>
          <CustomOffers offers={offers.data} {...actions} />
        </Stack>
      )}

      <Paper withBorder p="md" bg="indigo.0">
        <Text fw={500}>{PAYMENT_MESSAGES.dashboardBanner}</Text>
      </Paper>

      <InstallmentModal
        plan={checkout.asking}
        onChoose={checkout.choosePayment}
        onClose={checkout.cancel}
      />
    </Stack>
  );
}
