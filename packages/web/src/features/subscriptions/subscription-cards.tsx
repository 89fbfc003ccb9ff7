import { Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import {
  INSTALLMENT_MONTHS,
  PAYMENT_MESSAGES,
  SPEC_MESSAGES,
  autoRenewalMessage,
  SEARCH_MESSAGES,
  formatLongDate,
  type SubscriptionCard,
} from '@ratelens/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormAlert } from '../../shared/form-alert.tsx';
import { ApiRequestError } from '../../shared/http.ts';
import { PageLoader } from '../../shared/page-loader.tsx';
import { ButtonLink } from '../../shared/router-link.tsx';
import { getMySubscriptions, subscriptionKeys, updateAutoRenewal } from './subscriptions-api.ts';
import classes from './subscriptions.module.css';

/** What the auto-renewal message calls a subscription: 'Alabama (Annual)' or 'Individual Search'. */
export function subjectOf(card: SubscriptionCard): string {
  return card.individualSearch
    ? 'Individual Search'
    : `${card.state ?? 'All States'} (${card.subscriptiontype})`;
}

/**
 * The profile's subscription cards (search-and-accounts §2 "Profile", §4 "Auto-renew toggle",
 * §8), or 'You dont have any Subscription'.
 */
export function SubscriptionCards({ userId }: { userId: string }) {
  const cards = useQuery({
    queryKey: subscriptionKeys.mine(userId),
    queryFn: ({ signal }) => getMySubscriptions(userId, signal),
  });

  if (cards.isPending) return <PageLoader label="Loading your subscriptions..." />;
  if (cards.isError) {
    return (
      <Stack gap="sm" align="flex-start">
        <FormAlert tone="error">{cards.error.message}</FormAlert>
        <Button variant="default" onClick={() => void cards.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  }
  if (cards.data.length === 0) {
    return (
      <Card withBorder padding="lg">
        <Stack gap="sm" align="flex-start">
          <Text>{SPEC_MESSAGES.noSubscription}</Text>
          <ButtonLink to="/subscription" variant="light">
            See the plans
          </ButtonLink>
        </Stack>
      </Card>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      {cards.data.map((card) => (
        <SubscriptionCardView key={card.mySubscriptionID} card={card} userId={userId} />
      ))}
    </SimpleGrid>
  );
}

type Result = { tone: 'success' | 'error'; text: string };

/** §8: the server's reason when it gave one, 'Try Again!!' when the call itself failed. */
function failureText(error: unknown): string {
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500)
    return error.serverMessage ?? PAYMENT_MESSAGES.autoRenewTryAgain;
  return PAYMENT_MESSAGES.autoRenewTryAgain;
}

function SubscriptionCardView({ card, userId }: { card: SubscriptionCard; userId: string }) {
  const queryClient = useQueryClient();
  // §4: the switch flips at once and flips back if the server says no.
  const [on, setOn] = useState(card.autoRenewal);
  const [result, setResult] = useState<Result | null>(null);
  // Read once: a card that lapses while the page is open keeps its label until the next load.
  const [expired] = useState(() => Date.parse(card.expireDate) <= Date.now());
  const subject = subjectOf(card);
  const messageId = `auto-renewal-${card.mySubscriptionID}`;

  const toggle = useMutation({
    mutationFn: (next: boolean) =>
      updateAutoRenewal({
        userID: userId,
        mySubscriptionID: card.mySubscriptionID,
        autoRenewStatus: next,
      }),
    onMutate: (next) => {
      setOn(next);
      setResult(null);
    },
    onSuccess: (answer, next) => {
      if (answer.status) {
        setResult({ tone: 'success', text: autoRenewalMessage(subject, next) });
        void queryClient.invalidateQueries({ queryKey: subscriptionKeys.mine(userId) });
      } else {
        setOn(!next);
        setResult({ tone: 'error', text: answer.message || PAYMENT_MESSAGES.autoRenewTryAgain });
      }
    },
    onError: (error, next) => {
      setOn(!next);
      setResult({ tone: 'error', text: failureText(error) });
    },
  });

  return (
    <Card withBorder padding="lg" component="article" aria-label={card.subscriptionTitle}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Text fw={600} className={classes.wrap}>
            {card.subscriptionTitle}
          </Text>
          <Badge variant="filled" color={expired ? 'red.9' : 'teal.9'} style={{ flexShrink: 0 }}>
            {expired ? 'Expired' : 'Active'}
          </Badge>
        </Group>
        <Text size="sm">{subject}</Text>
        <Text size="sm">
          {expired ? 'Expired on' : 'Expires on'} {formatLongDate(new Date(card.expireDate))}
        </Text>
        {card.individualSearch && (
          <Text size="sm">
            {card.remaningSearchCount} of {card.totalSearchCount} searches left
          </Text>
        )}
        {card.installment && (
          <Text size="sm">Paid in {INSTALLMENT_MONTHS} monthly installments</Text>
        )}
        <Text size="sm" c="dimmed">
          {card.paymentMethod ? `Payment method: ${card.paymentMethod}` : 'No saved payment method'}
        </Text>
        {expired && card.individualSearch && (
          <Text size="sm">{SEARCH_MESSAGES.subscriptionExpired(card.remaningSearchCount)}</Text>
        )}
        <Group gap="sm" mt="xs">
          <Switch
            label="Auto-renewal"
            checked={on}
            // Kept enabled (a disabled control drops keyboard focus); a press mid-call is ignored.
            onChange={(event) => {
              if (!toggle.isPending) toggle.mutate(event.currentTarget.checked);
            }}
            aria-busy={toggle.isPending}
            aria-describedby={result ? messageId : undefined}
          />
          {toggle.isPending && (
            <Group gap={6} role="status">
              <Loader size="xs" aria-hidden="true" />
              <Text size="sm">Saving...</Text>
            </Group>
          )}
        </Group>
        {result && (
          <div id={messageId}>
            <FormAlert tone={result.tone}>{result.text}</FormAlert>
          </div>
        )}
      </Stack>
    </Card>
  );
}
