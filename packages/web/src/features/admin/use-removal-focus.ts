import { useEffect, useRef, useState } from 'react';

/**
 * Where the keyboard goes after a confirmed removal on an admin list. The row's button that
 * opened the confirmation goes with its row (or, for a coupon, with its active state): Mantine's
 * Modal gives the focus back to that button, the list is then loaded again without it, and the
 * focus falls to <body>, where a screen reader says nothing and a keyboard user starts again from
 * the top of the page. Instead, the notice saying what was removed (a FormAlert given
 * `noticeRef`, announced politely as role="status") takes the focus.
 *
 * Call `focusNotice()` from the removal's onSuccess, with the notice set in the same update: the
 * focus moves once the dialog has closed and the notice is shown. That happens in an effect of
 * the list, which runs after the Modal's own (a child's effects run first), so the Modal then sees
 * the focus taken and leaves it. A refused removal keeps the dialog open, and ConfirmRemoval puts
 * the focus on its error; this is not called then. A focus the person has put outside the dialog
 * meanwhile is left where it is.
 */
export function useRemovalFocus() {
  const noticeRef = useRef<HTMLDivElement>(null);
  const [removals, setRemovals] = useState(0);

  useEffect(() => {
    if (removals === 0) return;
    const focused = document.activeElement;
    const lost = focused === null || focused === document.body;
    if (!lost && !focused.closest('[role="dialog"]')) return;
    noticeRef.current?.focus();
  }, [removals]);

  return { noticeRef, focusNotice: () => setRemovals((count) => count + 1) };
}
