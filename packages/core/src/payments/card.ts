/*
 * Card and bank-account checks (issue 5 point 4; the spec's "no format checks" is a defect,
 * docs/decisions/0007-spec-defects.md). Pure: web forms and the server use the same rules.
 */

export const CARD_TYPES = ['Visa', 'Master Card', 'Discover', 'American Express'] as const;
export type CardType = (typeof CARD_TYPES)[number];

/** Digits only, spaces and dashes removed. */
export function digitsOf(text: string): string {
  return text.replace(/[\s-]/g, '');
}

/** The Luhn (mod 10) check: every payment card number passes it, and an NPI behind 80840. */
export function passesLuhn(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = number.charCodeAt(number.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The card's brand from its number (IIN ranges), or null for a brand we do not take. */
export function cardBrandOf(number: string): CardType | null {
  if (/^4\d{12}(\d{3}){0,2}$/.test(number)) return 'Visa';
  if (/^(5[1-5]\d{14}|2(2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)\d{12})$/.test(number))
    return 'Master Card';
  if (/^3[47]\d{13}$/.test(number)) return 'American Express';
  if (
    /^(6011\d{12}|65\d{14}|64[4-9]\d{13}|6221(2[6-9]|[3-9]\d)\d{10}|622[2-8]\d{12})$/.test(number)
  )
    return 'Discover';
  return null;
}

/** When the number belongs to another brand than the chosen card type ("an" before a vowel). */
export function brandMismatchMessage(type: CardType): string {
  return `Card number is not ${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${type} number.`;
}

/** CVV: 4 digits for American Express (on the front), 3 for the other brands (on the back). */
export function cvvFits(cvv: string, brand: CardType | null): boolean {
  return brand === 'American Express' ? /^\d{4}$/.test(cvv) : /^\d{3}$/.test(cvv);
}

/** `MM/YYYY` → month and year, or null. */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const match = /^(0[1-9]|1[0-2])\/(\d{4})$/.exec(text.trim());
  if (!match) return null;
  return { month: Number(match[1]), year: Number(match[2]) };
}

/** A card is good through the last day of its expiry month (UTC). */
export function expiryInFuture(expiry: { month: number; year: number }, now: Date): boolean {
  const currentMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const expiryMonth = expiry.year * 12 + (expiry.month - 1);
  return expiryMonth >= currentMonth && expiry.year <= now.getUTCFullYear() + 20;
}

/** The ABA routing-number checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function passesAbaChecksum(routingNumber: string): boolean {
  if (!/^\d{9}$/.test(routingNumber) || routingNumber === '000000000') return false;
  const d = [...routingNumber].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0;
}

/** The last four digits, the only part of a card or account number RateLens keeps. */
export function lastFour(number: string): string {
  return digitsOf(number).slice(-4);
}
