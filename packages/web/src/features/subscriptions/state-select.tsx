import { Select } from '@mantine/core';
import type { StateItem } from '@ratelens/core';
import { useMemo } from 'react';
import { useStates } from '../inventory/inventory-queries.ts';

/** §9: the plans are shown for Alabama (AL), state id 1, until another state is chosen. */
export const DEFAULT_STATE: StateItem = { stateID: 1, stateName: 'Alabama', stateCode: 'AL' };

export function stateLabel(state: StateItem): string {
  return `${state.stateName} (${state.stateCode})`;
}

interface StateSelectProps {
  label: string;
  value: StateItem;
  onChange: (state: StateItem) => void;
}

/**
 * The plans pages' state dropdown (subscriptions-and-payments §2, §4 "Plan list"). It cannot be
 * emptied: the spec's empty choice goes back to Alabama (AL), which is where it already starts.
 */
export function StateSelect({ label, value, onChange }: StateSelectProps) {
  const states = useStates();
  const options = useMemo(() => {
    const list = states.data ?? [DEFAULT_STATE];
    return list.map((state) => ({ value: String(state.stateID), label: stateLabel(state) }));
  }, [states.data]);

  return (
    <Select
      label={label}
      data={options}
      value={String(value.stateID)}
      onChange={(chosen) => {
        const state = states.data?.find((item) => String(item.stateID) === chosen);
        onChange(state ?? DEFAULT_STATE);
      }}
      searchable
      allowDeselect={false}
      nothingFoundMessage={states.isPending ? 'Loading...' : 'No state found'}
      error={states.isError ? 'The states could not be loaded.' : undefined}
      maw={360}
    />
  );
}
