import { Box, rem, type MantineBreakpoint } from '@mantine/core';
import { useRef, type ReactNode } from 'react';
import { useOverflows } from './use-overflows.ts';

interface ScrollRegionProps {
  /** The region's name for screen readers ("Negotiated rates", "Order"). */
  label: string;
  /** The table's narrowest width, in px: narrower than this, the region scrolls sideways. */
  minWidth: number;
  /** Where the table takes over from its cards (card-list.tsx); shown at every width without. */
  visibleFrom?: MantineBreakpoint;
  /**
   * A class that sets the region's overflow itself, by its `data-scrolls` attribute (the
   * inventory's, whose sticky header row needs no scroll container while the table fits).
   */
  className?: string;
  children: ReactNode;
}

/**
 * A wide table's own scrolling region, so the page never scrolls sideways, named for screen
 * readers. The region is itself the box that scrolls, and a stop for the Tab key only while its
 * table is wider than it: then keyboard users scroll it sideways with the arrow keys. A table that
 * fits leaves no stop that does nothing.
 */
export function ScrollRegion({
  label,
  minWidth,
  visibleFrom,
  className,
  children,
}: ScrollRegionProps) {
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
      className={className}
      style={className === undefined ? { overflowX: 'auto' } : undefined}
    >
      <div style={{ minWidth: rem(minWidth) }}>{children}</div>
    </Box>
  );
}
