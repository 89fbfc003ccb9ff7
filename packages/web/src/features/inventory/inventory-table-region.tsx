import { Box, rem } from '@mantine/core';
import { useRef, type ReactNode } from 'react';
import { useOverflows } from '../../shared/use-overflows.ts';
import classes from './inventory-table-region.module.css';

interface RegionProps {
  /** The region's name for screen readers ("Hospitals"). */
  label: string;
  /** The table's narrowest width, in px: narrower than this, the region scrolls sideways. */
  minWidth: number;
  /** Where the table takes over from the cards. */
  visibleFrom: 'sm' | 'lg';
  children: ReactNode;
}

/**
 * A wide table's own region, named for screen readers. It is a stop for the Tab key only while
 * its table is wider than it (then keyboard users scroll it with the arrow keys); a table that
 * fits leaves no stop that does nothing.
 *
 * A table that fits leaves the region no scroll container, so that a sticky header row sticks to
 * the top of the window as the page scrolls (a box that scrolls sideways scrolls up and down too,
 * and would hold the header row to its own top, which never moves). A table wider than the region
 * scrolls inside it both ways, no taller than the window: the header row sticks to its top.
 */
export function InventoryTableRegion({ label, minWidth, visibleFrom, children }: RegionProps) {
  const region = useRef<HTMLDivElement>(null);
  const scrolls = useOverflows(region);
  return (
    <Box
      ref={region}
      role="region"
      aria-label={label}
      tabIndex={scrolls ? 0 : undefined}
      data-scrolls={scrolls || undefined}
      visibleFrom={visibleFrom}
      className={classes.region}
    >
      <div style={{ minWidth: rem(minWidth) }}>{children}</div>
    </Box>
  );
}
