import {
  payerChargeWith,
  type ChargeRecord,
  type MrfHeader,
  type PayerCharge,
  type Setting,
} from '../model.ts';
import { CATALOGUE, type CatalogueItem } from './catalogue.ts';
import { demoAddress, demoLicenseNumber, demoNpis, type DemoHospital } from './hospitals.ts';
import { choosePlans, type DemoPlan } from './payers.ts';
import { cents, createRng, type Rng } from './prng.ts';

/**
 * Turns the catalogue into one hospital's standard charges. The shapes are the reader model's
 * (`ChargeRecord`, `PayerCharge`, `MrfHeader`), so a test can compare what a reader gets back
 * from a demo file with what was written.
 */

/** A fixed date: the files must not depend on the clock. v3.0 took effect on 2026-01-01. */
export const DEMO_LAST_UPDATED_ON = '2026-01-15';

export type DemoStandardCharge = Pick<
  ChargeRecord,
  'modifiers' | 'gross' | 'discountedCash' | 'min' | 'max' | 'genericNotes' | 'payers'
> & { setting: Setting };

export type DemoItem = Pick<ChargeRecord, 'description' | 'codes' | 'drugUnit' | 'drugType'> & {
  standardCharges: DemoStandardCharge[];
};

export interface DemoModifier {
  code: string;
  description: string;
  setting: Setting;
  payers: { payerName: string; planName: string; percentage: number; description: string }[];
}

export interface HospitalProfile {
  hospital: DemoHospital;
  seed: string;
  /** Chargemaster prices as a multiple of the reference payment. */
  markup: number;
  /** Self-pay discount: discounted cash = gross × this. */
  cashRate: number;
  /** Regional cost level (Alaska is dear, remote Alaska dearer). */
  geography: number;
  /** Whether the hospital publishes a self-pay package price for inpatient DRGs. */
  drgCashPackages: boolean;
  plans: DemoPlan[];
  /** The plan that pays implants at invoice cost ("other" methodology). */
  invoicePlanIndex: number;
}

const GEOGRAPHY: Record<string, number> = {
  AK: 1.45,
  MA: 1.2,
  FL: 1.0,
  TX: 1.0,
  PA: 0.95,
  AL: 0.85,
};

export function hospitalProfile(hospital: DemoHospital, seed: string): HospitalProfile {
  const rng = createRng(`${seed}:${hospital.id}:profile`);
  const remote = hospital.cbsa === null ? 1.2 : 1;
  const plans = choosePlans(hospital, rng);
  return {
    hospital,
    seed,
    markup: rng.between(2.8, 4.6),
    cashRate: rng.between(0.55, 0.8),
    geography: (GEOGRAPHY[hospital.state] ?? 1) * remote * rng.between(0.95, 1.05),
    drgCashPackages: rng.chance(0.5),
    plans,
    invoicePlanIndex: rng.int(0, plans.length - 1),
  };
}

export function demoHeader(profile: HospitalProfile, format: MrfHeader['format']): MrfHeader {
  const { hospital } = profile;
  const locations = [hospital.name];
  if (hospital.outpatientCenter !== null) locations.push(hospital.outpatientCenter);
  return {
    format,
    version: '3.0.0',
    declaredVersion: null,
    hospitalName: hospital.name,
    lastUpdatedOn: DEMO_LAST_UPDATED_ON,
    locationNames: locations,
    addresses: locations.map(() => demoAddress(hospital)),
    licenseNumber: demoLicenseNumber(hospital),
    licenseState: hospital.state,
    type2Npis: demoNpis(hospital),
    attesterName: 'Demo Compliance Officer',
    attestationConfirmed: true,
    generalContractProvisions: null,
  };
}

const MODIFIERS = [
  { code: '50', description: 'Bilateral procedure', share: [140, 150] },
  { code: 'RT', description: 'Right side of the body', share: [100, 100] },
  { code: 'LT', description: 'Left side of the body', share: [100, 100] },
] as const;

/** The modifiers the catalogue uses, with what each plan pays for them. */
export function demoModifiers(profile: HospitalProfile): DemoModifier[] {
  const rng = createRng(`${profile.seed}:${profile.hospital.id}:modifiers`);
  return MODIFIERS.map((modifier) => ({
    code: modifier.code,
    description: modifier.description,
    setting: 'both',
    payers: profile.plans.map((plan) => {
      const percentage = rng.int(modifier.share[0], modifier.share[1]);
      return {
        payerName: plan.payerName,
        planName: plan.planName,
        percentage,
        description:
          percentage === 100
            ? 'Identifies the side only; no payment adjustment.'
            : `${percentage}% of the rate for the item or service the modifier is appended to.`,
      };
    }),
  }));
}

/**
 * Every item of the catalogue, then every item again as chargemaster variants (a CDM code and a
 * line number) while `variants` lasts: `variants` = scale, or Infinity for a file cut by size.
 * Variants from `codedVariants` on carry their CDM code only, as most lines of a real chargemaster
 * do: a scaled demo then grows the rate tables without multiplying the rows of one CPT search.
 */
export function* demoItems(
  profile: HospitalProfile,
  variants: number,
  codedVariants = Infinity,
): Generator<DemoItem> {
  const rng = createRng(`${profile.seed}:${profile.hospital.id}:items`);
  for (let variant = 0; variant < variants; variant++) {
    for (const [index, item] of CATALOGUE.entries()) {
      yield buildItem(profile, item, index, variant, rng, variant < codedVariants);
    }
  }
}

function buildItem(
  profile: HospitalProfile,
  item: CatalogueItem,
  index: number,
  variant: number,
  rng: Rng,
  withItemCodes = true,
): DemoItem {
  const cdm = `${profile.hospital.id}-${String(index + 1).padStart(3, '0')}-${variant}`;
  const itemFactor = rng.between(0.85, 1.2);
  const standardCharges: DemoStandardCharge[] = [];
  for (const setting of item.settings) {
    for (const modifiers of [[], ...item.modifierVariants]) {
      const modifierFactor = modifiers.includes('50') ? 1.5 : 1;
      const settingFactor = setting === 'inpatient' && item.kind !== 'drg' ? 1.1 : 1;
      const reference = item.base * profile.geography * itemFactor * settingFactor * modifierFactor;
      standardCharges.push(buildStandardCharge(profile, item, setting, modifiers, reference, rng));
    }
  }
  return {
    description:
      variant === 0 ? item.description : `${item.description} (chargemaster line ${variant + 1})`,
    codes:
      variant === 0
        ? item.codes
        : [{ code: cdm, type: 'CDM' }, ...(withItemCodes ? item.codes : [])],
    drugUnit: item.drug?.unit ?? null,
    drugType: item.drug?.type ?? null,
    standardCharges,
  };
}

function buildStandardCharge(
  profile: HospitalProfile,
  item: CatalogueItem,
  setting: Setting,
  modifiers: string[],
  reference: number,
  rng: Rng,
): DemoStandardCharge {
  // Hospitals rarely publish a chargemaster price for a DRG: the stay is billed line by line.
  const gross = item.kind === 'drg' ? null : money(reference * profile.markup);
  const discountedCash =
    gross !== null
      ? money(gross * profile.cashRate)
      : profile.drgCashPackages
        ? money(reference * 1.3)
        : null;
  const payers: PayerCharge[] = [];
  for (const [planIndex, plan] of profile.plans.entries()) {
    // Not every contract prices every item; keep at least one payer per charge.
    const isLast = planIndex === profile.plans.length - 1;
    if (rng.chance(0.06) && !(isLast && payers.length === 0)) continue;
    payers.push(payerCharge(profile, item, plan, planIndex, reference, gross, rng));
  }
  const dollars = payers.flatMap((payer) => (payer.dollar === null ? [] : [payer.dollar]));
  return {
    setting,
    modifiers,
    gross,
    discountedCash,
    // CMS: minimum and maximum are the lowest and highest payer-specific negotiated dollar
    // amounts, and are required as soon as one payer has a dollar amount (45 CFR 180.50(b)(2)).
    min: dollars.length > 0 ? Math.min(...dollars) : null,
    max: dollars.length > 0 ? Math.max(...dollars) : null,
    genericNotes:
      item.kind === 'anesthesia'
        ? 'Facility anesthesia charge per case; professional anesthesia fees are billed separately.'
        : null,
    payers,
  };
}

function payerCharge(
  profile: HospitalProfile,
  item: CatalogueItem,
  plan: DemoPlan,
  planIndex: number,
  reference: number,
  gross: number | null,
  rng: Rng,
): PayerCharge {
  const base = payerChargeWith(plan.payerName, plan.planName, { methodology: 'fee schedule' });
  const negotiated = reference * plan.level * rng.between(0.92, 1.08);
  // A negotiated rate above the hospital's own list price would not be plausible.
  const dollar = money(gross === null ? negotiated : Math.min(negotiated, gross * 0.95));

  if (item.kind === 'drg') {
    if (!plan.medicareBased && rng.chance(0.1)) {
      const perDay = money(dollar / 4);
      return withClaims(
        {
          ...base,
          methodology: 'case rate',
          algorithm: `Case rate of $${dollar.toFixed(2)} for stays up to 5 days, plus $${perDay.toFixed(2)} for each additional day.`,
        },
        dollar,
        rng,
      );
    }
    return { ...base, methodology: 'case rate', dollar };
  }
  if (item.kind === 'room') return { ...base, methodology: 'per diem', dollar };
  if (item.kind === 'implant' && planIndex === profile.invoicePlanIndex) {
    return withClaims(
      {
        ...base,
        methodology: 'other',
        algorithm: "Paid at 115% of the hospital's invoice cost for the device.",
        notes: 'Methodology is explained in the algorithm data element.',
      },
      dollar,
      rng,
    );
  }
  if (plan.style === 'percent of charges' && gross !== null) {
    return withClaims(
      {
        ...base,
        methodology: 'percent of total billed charges',
        percentage: plan.percentOfCharges,
      },
      (gross * plan.percentOfCharges) / 100,
      rng,
    );
  }
  if (plan.medicareBased && rng.chance(0.2)) {
    return {
      ...base,
      dollar,
      notes: 'Paid at 100% of the Medicare fee schedule for this service.',
    };
  }
  return { ...base, dollar };
}

/**
 * v3 requires a count of paid claims with every percentage or algorithm, and the median, 10th
 * and 90th percentile of allowed amounts unless the count is "0" (then notes must say why).
 */
function withClaims(charge: PayerCharge, expected: number, rng: Rng): PayerCharge {
  if (rng.chance(0.07)) {
    const why = 'No claims paid under this rate in the 12-month lookback period.';
    return { ...charge, count: '0', notes: charge.notes === null ? why : `${charge.notes} ${why}` };
  }
  const median = money(expected * rng.between(0.9, 1.1));
  return {
    ...charge,
    count: rng.chance(0.35) ? '1 through 10' : String(rng.int(11, 900)),
    median,
    p10: money(median * rng.between(0.55, 0.9)),
    p90: money(median * rng.between(1.1, 1.7)),
  };
}

/** Cents, never zero: the schema requires every amount to be > 0. */
function money(value: number): number {
  return Math.max(0.01, cents(value));
}
