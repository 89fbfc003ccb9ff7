import { act } from '@testing-library/react';

/**
 * ResizeObservers that report only when a test says: jsdom lays nothing out. Stub the global
 * with it (`vi.stubGlobal('ResizeObserver', TestResizeObserver)`) and empty `all` after each test.
 */
export class TestResizeObserver {
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

type SizeKey = 'scrollWidth' | 'clientWidth' | 'scrollHeight' | 'clientHeight';
