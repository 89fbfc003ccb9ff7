/**
 * The donor of this browser tab (search-and-accounts §4 "Donation"): the verified e-mail and the
 * donationToken the one-time-code check answered with, which the donation payment calls carry
 * as the `Donation-Token` header. Session storage: it ends with the tab.
 */
const DONATION_KEY = 'donation';

export interface Donor {
  email: string;
  donationToken: string;
}

function store(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readDonor(): Donor | null {
  const raw = store()?.getItem(DONATION_KEY) ?? null;
  if (raw === null) return null;
  try {
    const data = JSON.parse(raw) as Record<string, unknown> | null;
    const email = data?.email;
    const donationToken = data?.donationToken;
    return typeof email === 'string' && email !== '' && typeof donationToken === 'string'
      ? { email, donationToken }
      : null;
  } catch {
    return null;
  }
}

export function storeDonor(donor: Donor): void {
  store()?.setItem(DONATION_KEY, JSON.stringify(donor));
}

/** After a donation (the token is spent) and on /thankYou. */
export function clearDonation(): void {
  store()?.removeItem(DONATION_KEY);
}
