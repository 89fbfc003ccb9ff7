// @vitest-environment jsdom
import { Table } from '@mantine/core';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { ScrollRegion } from './scroll-region.tsx';

/** ResizeObservers that report only when a test says: jsdom lays nothing out. */
class TestResizeObserver {
  static all: TestResizeObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(private readonly callback: ResizeObserverCallback) {
    TestResizeObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  /** Gives the element these sizes, and tells the observers watching it. */
  static resize(element: HTMLElement, sizes: Partial<Record<SizeKey, number>>) {
    for (const [key, value] of Object.entries(sizes)) {
      Object.defineProperty(element, key, { configurable: true, value });
    }
    act(() => {
      for (const observer of TestResizeObserver.all.filter((o) => o.targets.has(element))) {
        observer.callback([], observer);
      }
    });
  }
}
type SizeKey = 'scrollWidth' | 'clientWidth';

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
