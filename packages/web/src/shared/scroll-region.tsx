import { Table, type TableScrollContainerProps } from '@mantine/core';

type ScrollRegionProps = Omit<TableScrollContainerProps, 'aria-label' | 'role' | 'tabIndex'> & {
  /** The region's name for screen readers ("Hospitals", "Negotiated rates"). */
  label: string;
};

/**
 * A wide table's own scrolling region, so the page never scrolls sideways: named for screen
 * readers, and focusable, so keyboard users can scroll it sideways too.
 */
export function ScrollRegion({ label, ...props }: ScrollRegionProps) {
  return <Table.ScrollContainer tabIndex={0} role="region" aria-label={label} {...props} />;
}
