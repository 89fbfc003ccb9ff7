import type { MouseEvent } from 'react';
import { NavigationType, useLocation, useNavigate, useNavigationType } from 'react-router';

/**
 * What the list is told, in the router's state (the URL keeps only the list's filters and page):
 * the hospital the visitor comes back from, whose row takes the focus. A hospital's "Back to the
 * inventory" link gives it; so does the list's own history entry, written as a hospital is opened,
 * for the browser's Back button.
 */
export interface BackToInventory {
  hospitalId: string;
}

export function backToInventory(hospitalId: string): BackToInventory {
  return { hospitalId };
}

/** The hospital a location's state says the visitor comes back from, if it says one. */
export function hospitalComingBack(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('hospitalId' in state)) return null;
  return typeof state.hospitalId === 'string' ? state.hospitalId : null;
}

/**
 * The hospital the visitor comes back to the list from, if they do: by "Back to the inventory"
 * (a new entry) or by the browser's Back button (the list's own entry). A replace with that state
 * is the list writing it down while leaving for the hospital (`useOpenHospital`): no return.
 */
export function useHospitalComingBack(): string | null {
  const state: unknown = useLocation().state;
  return useNavigationType() === NavigationType.Replace ? null : hospitalComingBack(state);
}

/**
 * A click on a hospital's link in the list (`search`, the list's filters and page): before the
 * hospital's page opens, the list's own history entry is given what "Back to the inventory" tells
 * it, so that the browser's Back button, which returns to that entry, brings the focus back to
 * this hospital's link too. The two navigations run one after the other: one started before the
 * last has settled would cancel it. A click meant for a new tab or window is the browser's.
 */
export function useOpenHospital(
  hospitalId: string,
  search: string,
): (event: MouseEvent<HTMLAnchorElement>) => void {
  const navigate = useNavigate();
  async function open() {
    // The list's entry as it is (its path, filters and page), with the hospital written down.
    await navigate({ search }, { replace: true, state: backToInventory(hospitalId) });
    await navigate(hospitalPath(hospitalId, search));
  }
  return (event) => {
    if (!opensInPlace(event)) return;
    event.preventDefault();
    void open();
  };
}

/** A hospital's page, reached from the list: the list's filters and page travel with it. */
export function hospitalPath(hospitalId: string, search: string): string {
  return `/inventoryList/${hospitalId}${search}`;
}

/** A plain click, which the router follows; with a modifier key the browser opens a tab or window. */
export function opensInPlace(
  event: Pick<MouseEvent, 'button' | 'metaKey' | 'altKey' | 'ctrlKey' | 'shiftKey'>,
): boolean {
  return event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}
