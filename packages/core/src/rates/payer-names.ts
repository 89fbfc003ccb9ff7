import { US_STATES } from './states.ts';

/**
 * Payer names as hospitals write them ("BLUE CROSS BLUE SHIELD [110001]", "Bcbs",
 * "Florida Blue") reduced to one canonical name per payer, so rates group and filter by payer.
 * Companies are grouped by the brand a patient knows (every Blue Cross Blue Shield licensee is
 * "Blue Cross Blue Shield"; Ambetter, WellCare and Sunshine Health are Centene), not by
 * legal entity. Names without an alias are cleaned, not invented.
 */

export interface PayerAlias {
  canonical: string;
  /** Tested against the normalised name (see {@link normalisePayerText}). */
  patterns: readonly RegExp[];
}

/** Each state's name and USPS code as normalised text ("new york|ny|…"). */
const STATE_WORDS = US_STATES.flatMap((state) => [
  state.name.toLowerCase(),
  state.code.toLowerCase(),
])
  .map((word) => word.replace(/[^a-z]+/g, ' '))
  .join('|');

/** Medicare's parts A and B as normalised text: " part a", " a and b", " a b" (A/B), " ab". */
export const MEDICARE_PARTS = '( part)?( a| b| a and b| a b| ab)';

/** Order matters: the first match wins, so more specific entries come first. */
export const PAYER_ALIASES: readonly PayerAlias[] = [
  // TRICARE contractors carry commercial brands ("Humana Military"): test before them.
  // Health Net Federal Services ran TRICARE's North region: not Centene's Health Net.
  {
    canonical: 'TRICARE',
    patterns: [/\btricare\b/, /\bchampus\b/, /\bhumana military\b/, /\bhealth net federal\b/],
  },
  {
    canonical: 'Blue Cross Blue Shield',
    patterns: [
      /\bbcbs/,
      /\bblue cross\b/,
      /\bblue shield\b/,
      /\bbluecross\b/,
      /\bblueshield\b/,
      /\bflorida blue\b/,
      /\banthem\b/,
      /\bhighmark\b/,
      /\bpremera\b/,
      /\bregence\b/,
      /\bcarefirst\b/,
      /\bwellmark\b/,
      /\bexcellus\b/,
      /\bempire blue\b/,
      /\bindependence blue\b/,
      /\bhorizon (bcbs|blue)\b/,
      /\bcapital blue\b/,
      /\bblue care network\b/,
      /\bblue kc\b/,
      // Licensees' own brands: Florida Blue's Medicare plan, BlueCross BlueShield of Tennessee's
      // Medicaid plan, BlueCross of South Carolina's HMO, the Louisiana and Arkansas plans'
      // Medicare Advantage, Anthem's Medicaid plans, Independence Blue Cross.
      /\bbluemedicare\b/,
      /\bbluecare tennessee\b/,
      /\bbluechoice\b/,
      /\bblue advantage\b/,
      /\bhealthy blue\b/,
      /^ibx\b/,
    ],
  },
  // Coventry Health Care, not Coventry's workers' comp services, which Aetna sold in 2020.
  {
    canonical: 'Aetna',
    patterns: [/\baetna\b/, /\bmeritain\b/, /\bcoventry health( care)?\b/],
  },
  { canonical: 'Cigna', patterns: [/\bcigna\b/, /\bevernorth\b/] },
  {
    canonical: 'UnitedHealthcare',
    patterns: [
      /\bunited ?health ?care\b/,
      /\bunited health ?care\b/,
      /\buhc\b/,
      /\bumr\b/,
      /\bneighborhood health partnership\b/,
      // UnitedHealthcare's brands: AARP's Medicare plans, Golden Rule, Oxford, Surest.
      /\baarp\b/,
      /\bgolden rule\b/,
      /\boxford health\b/,
      /\bsurest\b/,
    ],
  },
  // The VA's community care, whoever runs its network (Optum, TriWest) in the payer's name:
  // "VA" only as the whole name, since it is also Virginia's ("Anthem HealthKeepers VA").
  {
    canonical: 'Veterans Affairs',
    patterns: [
      /^va$/,
      /\bveterans (affairs|(health )?administration)\b/,
      /\bva (community care|ccn)\b/,
      /\boptum va\b/,
      /\bchampva\b/,
    ],
  },
  { canonical: 'Optum', patterns: [/\boptum\b/] },
  { canonical: 'Humana', patterns: [/\bhumana\b/, /\bcareplus\b/] },
  {
    canonical: 'Centene',
    patterns: [
      /\bcentene\b/,
      /\bambetter\b/,
      /\bwellcare\b/,
      // WellCare's Florida Medicaid plan, merged into Sunshine Health in 2021.
      /\bstaywell\b/,
      /\bsunshine (state )?health\b/,
      /\bhealth net\b/,
      /\bpeach state health\b/,
      /\bsuperior health ?plan\b/,
      /\bfidelis\b/,
    ],
  },
  { canonical: 'Molina Healthcare', patterns: [/\bmolina\b/] },
  { canonical: 'Oscar Health', patterns: [/\boscar\b/] },
  { canonical: 'Kaiser Permanente', patterns: [/\bkaiser\b/] },
  {
    canonical: 'MultiPlan',
    patterns: [/\bmultiplan\b/, /\bphcs\b/, /\bprivate healthcare systems\b/],
  },
  { canonical: 'Harvard Pilgrim Health Care', patterns: [/\bharvard pilgrim\b/, /\bhphc\b/] },
  { canonical: 'Tufts Health Plan', patterns: [/\btufts health\b/] },
  {
    canonical: 'Mass General Brigham Health Plan',
    patterns: [/\bmgb health\b/, /\bmass general brigham health\b/, /\ballways health\b/],
  },
  { canonical: 'WellSense Health Plan', patterns: [/\bwellsense\b/, /\bbmc healthnet\b/] },
  { canonical: 'UPMC Health Plan', patterns: [/\bupmc\b/] },
  { canonical: 'AvMed', patterns: [/\bavmed\b/] },
  // The government programs themselves, only when the name is nothing else: Medicare with its
  // parts A and B (not C, Medicare Advantage), a Medicare administrative contractor (WPS, CGS and
  // NGS only after "Medicare": WPS also sells commercial insurance), CMS by its whole name; a
  // state's Medicaid by its name or code ("Florida Medicaid", "FL MEDICAID"). Not "CMS" alone:
  // Florida's Children's Medical Services is a Medicaid plan.
  {
    canonical: 'Medicare',
    patterns: [
      new RegExp(
        `^(original |traditional )?medicare(${MEDICARE_PARTS})?( ffs| fee for service| traditional)?$`,
      ),
      /^medicare (novitas( solutions)?|palmetto( gba)?|ngs|national government services|noridian|wps|cgs|first coast( service options)?)$/,
      /^(novitas( solutions)?|palmetto gba|noridian( healthcare solutions)?|national government services|first coast service options)$/,
      /^centers for medicare( and medicaid services)?$/,
    ],
  },
  {
    canonical: 'Medicaid',
    patterns: [
      /^(state )?medicaid( ffs| fee for service)?$/,
      new RegExp(`^(state of )?(${STATE_WORDS}) medicaid( ffs| fee for service)?$`),
      new RegExp(`^medicaid (of )?(${STATE_WORDS})$`),
      /^masshealth$/,
      /^medi cal$/,
      /^tenncare$/,
      /^ahcccs$/,
      /^soonercare$/,
    ],
  },
];

/** Written upper case when a name is cleaned, whatever the file's case. */
const ACRONYMS = new Set([
  'HMO',
  'PPO',
  'EPO',
  'POS',
  'MGB',
  'UPMC',
  'PHCS',
  'USA',
  'CCA',
  'HPHC',
  'VA',
]);

/**
 * Each bracketed text ("[1001]") as a space. Only the text up to the last "]" can hold one: past
 * it the pattern would try each "[" against the whole rest, time growing with the square of its
 * length (a payer name of 100,000 "[" took 6 s; ADR 0004, "Patterns").
 */
function unbracketed(text: string): string {
  const end = text.lastIndexOf(']') + 1;
  return text.slice(0, end).replace(/\[[^\]]*\]/g, ' ') + text.slice(end);
}

/**
 * Lower case, "&" as "and", bracketed payer ids ("[1001]") and punctuation removed, spaces
 * collapsed. "-" and "." become spaces, so "Medi-Cal" is "medi cal".
 */
export function normalisePayerText(name: string): string {
  return unbracketed(name.toLowerCase())
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function titleCase(words: string): string {
  return words
    .split(' ')
    .map((word) =>
      ACRONYMS.has(word.toUpperCase())
        ? word.toUpperCase()
        : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join(' ');
}

/**
 * The canonical name of a payer: an alias table match, else the cleaned name (bracketed ids
 * and a trailing "alternate", Martha's Vineyard's marker of a second contract with the same
 * payer, removed; title case). Empty for an empty name.
 */
export function canonicalPayer(payerName: string): string {
  const normalised = normalisePayerText(payerName);
  if (!normalised) return '';
  const withoutVariant = normalised.replace(/ alternate$/, '');
  for (const alias of PAYER_ALIASES) {
    if (alias.patterns.some((pattern) => pattern.test(withoutVariant))) return alias.canonical;
  }
  return titleCase(withoutVariant);
}

/**
 * A payer's name as people read it: the file's bracketed payer ids removed ("BLUE CROSS BLUE
 * SHIELD [110001]" is "BLUE CROSS BLUE SHIELD"), otherwise as the file writes it. Not the
 * canonical payer, which would make one of "CIGNA" and "CIGNA ALTERNATE", two contracts.
 */
export function payerDisplayName(payerName: string): string {
  const shown = unbracketed(payerName).replace(/\s+/g, ' ').trim();
  return shown || payerName.trim();
}
