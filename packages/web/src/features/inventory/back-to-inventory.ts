/**
 * What a hospital's "Back to the inventory" link tells the list, in the router's state (the URL
 * keeps only the list's filters and page): the hospital the visitor comes from, whose row takes
 * the focus.
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
