import { Stack, Text, Title } from '@mantine/core';
import type { RateMix } from '@ratelens/core';
import { useId } from 'react';
import {
  lineOfBusinessBars,
  originBars,
  payersSentence,
  type RateMixBar,
} from './inventory-format.ts';
import classes from './rate-mix.module.css';

/**
 * What a file's payer rates are: how many payers and plans, and two bar charts of its rates, by
 * the plans' line of business and by where their dollar figure comes from. Each bar's sentence
 * carries its figures; the bar itself is for the eye only.
 */
export function RateMixView({ mix }: { mix: RateMix }) {
  return (
    <Stack gap="sm">
      <Text>{payersSentence(mix)}</Text>
      <Bars title="By line of business" bars={lineOfBusinessBars(mix)} />
      <Bars title="Where the dollar figure comes from" bars={originBars(mix)} />
      {mix.byOrigin.none > 0 && (
        <Text size="sm">Rates without a dollar figure are not shown in rate searches.</Text>
      )}
    </Stack>
  );
}

function Bars({ title, bars }: { title: string; bars: RateMixBar[] }) {
  const titleId = useId();
  return (
    <Stack gap={6}>
      <Title order={5} size="sm" id={titleId}>
        {title}
      </Title>
      <ul className={classes.bars} aria-labelledby={titleId}>
        {bars.map((bar) => (
          <li key={bar.key} className={classes.bar}>
            <Text size="sm">{bar.sentence}</Text>
            <div className={classes.track} aria-hidden="true">
              <div className={classes.fill} style={{ width: `${bar.percent}%` }} />
            </div>
          </li>
        ))}
      </ul>
    </Stack>
  );
}
