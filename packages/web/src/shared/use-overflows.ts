import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the element's content is wider than its box, measured again whenever the element, its
 * child or its grandchild (the table, which grows with its rows) changes size. A hidden element
 * (display: none below its breakpoint, or in a closed <details>) measures 0 wide, and does not
 * overflow. Only the width counts: a height the element is given when it overflows must not keep
 * it overflowing.
 */
export function useOverflows(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const observer = new ResizeObserver(() => {
      // A pixel either way is rounding, not something to scroll to.
      setOverflows(element.scrollWidth - element.clientWidth > 1);
    });
    observer.observe(element);
    element.querySelectorAll(':scope > *, :scope > * > *').forEach((inner) => {
      observer.observe(inner);
    });
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}
