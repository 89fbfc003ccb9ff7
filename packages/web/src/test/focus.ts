import { fireEvent, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect } from 'vitest';

/**
 * Browsers follow the HTML focus fixup rule
 * (https://html.spec.whatwg.org/multipage/interaction.html#focus-fixup-rule): a focused control
 * that becomes disabled, as a Mantine Button does while `loading`, loses the focus to <body>.
 * jsdom leaves it on the disabled control (https://github.com/jsdom/jsdom/issues/3029); this does
 * what Chromium does, for the tests of the file that calls it.
 */
export function dropFocusFromDisabledControls(): void {
  let observer: MutationObserver | undefined;
  beforeEach(() => {
    observer = new MutationObserver(() => {
      if (!document.activeElement?.matches(':disabled')) return;
      // jsdom's blur() ignores a disabled element: a stand-in takes the focus and leaves.
      const standIn = document.createElement('span');
      standIn.tabIndex = -1;
      document.body.append(standIn);
      standIn.focus();
      standIn.remove();
    });
    observer.observe(document.body, {
      subtree: true,
      attributes: true,
      attributeFilter: ['disabled'],
    });
  });
  afterEach(() => observer?.disconnect());
}

/** A fetch answer held back until the test releases it, to act while the request runs. */
export function heldAnswer(): {
  answer: () => Promise<Response>;
  release: (response: Response) => void;
} {
  let release: (response: Response) => void = () => undefined;
  const promise = new Promise<Response>((resolve) => {
    release = resolve;
  });
  return { answer: () => promise, release };
}

/**
 * Presses `button` from the keyboard (focused, then activated) and waits until the busy button
 * has lost the focus to <body>, as in a browser: what the page does next is up to it.
 */
export async function pressAndLoseFocus(button: HTMLElement): Promise<void> {
  button.focus();
  expect(document.activeElement).toBe(button);
  fireEvent.click(button);
  await waitFor(() => expect(document.activeElement).toBe(document.body));
}
