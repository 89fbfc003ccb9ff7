// Build-time configuration (packages/web/.env or the environment of `vite build`), like the video
// links: the address the plans pages' mail-to buttons write to (subscriptions-and-payments §2).
const env = import.meta.env as Record<string, string | undefined>;

export const SALES_EMAIL = env.VITE_SALES_EMAIL || 'team@ratelens.local';

/** A mail-to link with a subject (§7: "A mail-to link with a subject is used …"). */
export function mailtoHref(subject: string): string {
  return `mailto:${SALES_EMAIL}?subject=${encodeURIComponent(subject)}`;
}

export const MAIL_SUBJECTS = {
  negotiable: 'National data access: all states',
  tryVindex: 'Try Vindex: free 3-day trial for employers',
  pickHospitals: 'Pick specific hospitals for Cost Comparison Tool',
} as const;
