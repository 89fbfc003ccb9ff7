import { canonicalPayer, MEDICARE_PARTS, normalisePayerText } from './payer-names.ts';

export const LINES_OF_BUSINESS = [
  'commercial',
  'medicare-advantage',
  'medicaid-managed-care',
  'exchange',
  'other',
] as const;
export type LineOfBusiness = (typeof LINES_OF_BUSINESS)[number];

/**
 * Words that place a plan, checked in this order on the plan name, then on the payer name.
 * Hospitals' plan names are free text ("HB MVH MEDICARE", "Medicare Managed Care - Hmo",
 * "Myblue Hmo Exchange"), so these are heuristics; anything without a signal is commercial.
 */
const SIGNALS: readonly (readonly [LineOfBusiness, RegExp])[] = [
  // The VA: "VA" alone is also Virginia's abbreviation ("Aetna Better Health of VA" is Medicaid,
  // and 'other' is tested first), so it counts only as the whole name or beside the VA's
  // community care programme or its contractor (VA CCN, Optum VA).
  [
    'other',
    /\b(work(ers?|mans?)? ?comp(ensation)?|auto(mobile)?|motor vehicle|no fault|personal injury|liability|tricare|champva|va community care|va ccn|optum va|veterans (affairs|(health )?administration)|medicare supplement|medigap)\b|^va$/,
  ],
  // Dual-eligible plans count as D-SNPs: Massachusetts' Senior Care Options (SCO, 65 and over)
  // and One Care (21 to 64), as two words only: glued "OneCare" is CalOptima's D-SNP but also
  // OneCare Vermont, an ACO of every line of business. A brand glued to "Medicare" is its
  // Medicare product, as "Aetna Medicare" is (Florida Blue's "BlueMedicare HMO"); "Non-Medicare"
  // and "Pre-Medicare" (retirees under 65) are taken out first (NOT_MEDICARE). A Medicare
  // Supplement (Medigap) pays beside original Medicare, so it is 'other', as that is. Humana
  // Gold Plus is Humana's MA HMO.
  [
    'medicare-advantage',
    /\b([a-z]*medicare|ma (hmo|ppo|pffs|pos|pd)|mapd|dual|d snp|c snp|i snp|snp|senior|sco|one care|humana gold plus)\b/,
  ],
  // Staywell (WellCare's, now Centene's, Florida plan) sold only Medicaid and Healthy Kids.
  [
    'medicaid-managed-care',
    /\b(medicaid|chip|healthy kids|mco|masshealth|medi cal|tenncare|ahcccs|soonercare|badgercare|better health|staywell)\b/,
  ],
  // Brands sold only on the individual market count as its name: Ambetter (Centene), myBlue
  // (Florida Blue; AdventHealth Orlando lists "Myblue Hmo Exchange" and, among its modifiers,
  // Lucet Health's "MyBlue Behavioral Health Plan"), and Massachusetts' exchange, the Health
  // Connector, with its subsidised ConnectorCare plans.
  [
    'exchange',
    /\b(marketplace|exchange|aca|ambetter|myblue|individual|obamacare|qhp|covered california|connectorcare|health connector)\b/,
  ],
];

/**
 * A plan that names original Medicare, whoever the payer column names (its contractor): its
 * parts A and B (MEDICARE_PARTS, as the payer alias writes them), fee for service, "Original" or
 * "Traditional Medicare", but not "Non-Traditional Medicare", a name of Medicare Advantage.
 */
const ORIGINAL_MEDICARE = new RegExp(
  `(?<!\\bnon )\\b(original|traditional) medicare\\b|\\bmedicare${MEDICARE_PARTS}\\b|\\bmedicare (ffs|fee for service)\\b`,
);

/** A managed product, named under Medicare itself: Massachusetts' dual-eligible SCO and One Care too. */
const MANAGED_MEDICARE =
  /\b(advantage|managed care|replacement|ma|hmo|ppo|pffs|snp|dual|sco|one care|part c|gold plus)\b/;

/** Plans for those who are not (yet) on Medicare: the word says nothing of the line of business. */
const NOT_MEDICARE = /\b(non|pre) ?medicare\b/g;

function signalOf(text: string): LineOfBusiness | undefined {
  const words = text.replace(NOT_MEDICARE, ' ');
  for (const [line, pattern] of SIGNALS) {
    if (pattern.test(words)) return line;
  }
  return undefined;
}

/**
 * Whether a payer and plan are original (fee-for-service) Medicare: Medicare itself as the payer,
 * or a plan that names it, with no managed product named in either.
 */
function originalMedicare(canonical: string, payer: string, plan: string): boolean {
  if (canonical === 'Medicare') return !MANAGED_MEDICARE.test(plan);
  return ORIGINAL_MEDICARE.test(plan) && !MANAGED_MEDICARE.test(`${plan} ${payer}`);
}

/** The same, as the file writes them: the inventory counts its rates as Medicare rates. */
export function isOriginalMedicare(payerName: string, planName: string): boolean {
  return originalMedicare(
    canonicalPayer(payerName),
    normalisePayerText(payerName),
    normalisePayerText(planName),
  );
}

/**
 * Line of business of a payer and plan. Original (fee-for-service) Medicare is neither Medicare
 * Advantage nor commercial: when the payer is Medicare itself and the plan names no managed
 * product (advantage, HMO, PPO, SNP…), it is 'other', and so is fee-for-service Medicaid: the
 * state's programme as the payer with no managed plan, or a plan that says fee for service. A
 * commercial payer's "Medicare" plan is its Medicare Advantage product ("AETNA" + "HB MVH
 * MEDICARE").
 */
export function lineOfBusiness(payerName: string, planName: string): LineOfBusiness {
  const plan = normalisePayerText(planName);
  const payer = normalisePayerText(payerName);
  const canonical = canonicalPayer(payerName);
  if (canonical === 'TRICARE') return 'other';
  const fromPlan = signalOf(plan);
  if (originalMedicare(canonical, payer, plan)) return 'other';
  // Humana names its MA HMO "Gold Plus" in the plan, the brand often left to the payer's column.
  if (canonical === 'Humana' && /\bgold plus\b/.test(plan) && fromPlan === undefined)
    return 'medicare-advantage';
  const line = fromPlan ?? signalOf(payer) ?? 'commercial';
  // Fee-for-service Medicaid is the state paying the hospital directly: not managed care, so
  // 'other', as original Medicare is. A plan that says so ("Alaska Medicaid" / "Fee for
  // Service"), or the state's programme as the payer with a plan that names only Medicaid
  // ("MASSHEALTH" / "HB MVH MEDICAID"; the managed plans are insurers', WellSense or MGB's). A
  // plan naming something else ("TennCare" / "BlueCare") stays managed care.
  const unmanaged = !/\b(managed care|mco|hmo|ppo|aco|advantage)\b/.test(`${plan} ${payer}`);
  if (
    line === 'medicaid-managed-care' &&
    unmanaged &&
    (/\b(fee for service|ffs)\b/.test(`${plan} ${payer}`) ||
      (canonical === 'Medicaid' && fromPlan === 'medicaid-managed-care'))
  )
    return 'other';
  return line;
}
