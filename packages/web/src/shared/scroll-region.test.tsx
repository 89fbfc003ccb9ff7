// @vitest-environment jsdom
import { Table } from '@mantine/core';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { ScrollRegion } from './scroll-region.tsx';
import { TestResizeObserver } from '../test/resize-observer.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  TestResizeObserver.all = [];
});

function renderRegion() {
  renderWithProviders(
    <ScrollRegion label="Negotiated rates" minWidth={720} visibleFrom="sm">
      <Table>
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>A rate</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </ScrollRegion>,
  );
  return screen.getByRole('region', { name: 'Negotiated rates' });
}

describe('ScrollRegion', () => {
  it('is a stop for the Tab key only while its table is wider than it', () => {
    vi.stubGlobal('ResizeObserver', TestResizeObserver);
    const region = renderRegion();

    // Named either way; focusable only when the arrow keys have something to scroll.
    expect(region.hasAttribute('tabindex')).toBe(false);
    TestResizeObserver.resize(region, { scrollWidth: 720, clientWidth: 720 });
    expect(region.hasAttribute('tabindex')).toBe(false);
    TestResizeObserver.resize(region, { scrollWidth: 720, clientWidth: 375 });
    expect(region.getAttribute('tabindex')).toBe('0');
    // The window widened: the table fits again.
    TestResizeObserver.resize(region, { scrollWidth: 992, clientWidth: 992 });
    expect(region.hasAttribute('tabindex')).toBe(false);
    expect(screen.getByRole('region', { name: 'Negotiated rates' })).toBe(region);
  });

  it('is itself the box that scrolls, the table in it no narrower than its minimum width', () => {
    vi.stubGlobal('ResizeObserver', TestResizeObserver);
    const region = renderRegion();

    // The focused element must be the one that scrolls, for the arrow keys to scroll it
    // (e2e/search.spec.ts presses them in a browser).
    expect(region.style.overflowX).toBe('auto');
    expect(region.querySelector('table')?.parentElement?.parentElement).toBe(region);
    expect(region.querySelector('table')?.parentElement?.style.minWidth).toBe(
      'calc(45rem * var(--mantine-scale))',
    );
  });
});
