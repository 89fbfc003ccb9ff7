import { useEffect, useRef } from 'react';

/**
 * Where the keyboard goes when a request settles. Mantine's Button is disabled while `loading`,
 * and a browser then moves the focus of the pressed button to <body> (the HTML focus fixup rule,
 * https://html.spec.whatwg.org/multipage/interaction.html#focus-fixup-rule) and leaves it there:
 * a keyboard or screen-reader user would go on from the top of the page. When `pending` turns
 * false with the focus lost, this puts it on the result alert given `resultRef` (a FormAlert), if
 * one is shown, else back on the button given `buttonRef`, if it can take it. A focus the person
 * has put somewhere else meanwhile is left where it is.
 */
export function useSettledFocus(pending: boolean) {
  const buttonRef = useRef<HTMLButtonElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const wasPending = useRef(pending);

  useEffect(() => {
    const settled = wasPending.current && !pending;
    wasPending.current = pending;
    if (!settled) return;
    const button = buttonRef.current;
    const focused = document.activeElement;
    // Where the rule is not followed (jsdom, older browsers) the disabled button keeps it.
    if (focused !== null && focused !== document.body && focused !== button) return;
    (resultRef.current ?? (button?.disabled ? null : button))?.focus();
  }, [pending]);

  return { buttonRef, resultRef };
}
