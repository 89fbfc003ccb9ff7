import type { DemoHospital } from './hospitals.ts';
import type { Rng } from './prng.ts';

/**
 * Payers and plans a demo hospital contracts with. Payer names are real insurers (so the search
 * looks familiar); every rate attached to them is fictional.
 */

/** How a payer's contract prices outpatient items (inpatient DRGs are always case rates). */
export type ContractStyle = 'fee schedule' | 'percent of charges';

export interface DemoPlan {
  payerName: string;
  planName: string;
  /** Multiplier on the item's reference payment (commercial well above 1, Medicaid below). */
  level: number;
  style: ContractStyle;
  /** Percentage of total billed charges, for percent-of-charges contracts. */
  percentOfCharges: number;
  /** Medicare Advantage plans note that they follow Medicare's own fee schedules. */
  medicareBased: boolean;
}

interface PlanTemplate {
  payerName: string;
  planName: string;
  kind: 'commercial' | 'medicare' | 'medicaid' | 'marketplace';
}

const STATE_BLUES: Record<string, string> = {
  AK: 'Premera Blue Cross Blue Shield of Alaska',
  FL: 'Florida Blue',
  MA: 'Blue Cross Blue Shield of Massachusetts',
  AL: 'Blue Cross and Blue Shield of Alabama',
  TX: 'Blue Cross and Blue Shield of Texas',
  PA: 'Highmark Blue Cross Blue Shield',
};

const STATE_EXTRAS: Record<string, PlanTemplate[]> = {
  AK: [
    { payerName: 'Moda Health', planName: 'Alaska PPO', kind: 'commercial' },
    { payerName: 'Alaska Medicaid', planName: 'Fee for Service', kind: 'medicaid' },
  ],
  FL: [
    { payerName: 'Sunshine Health', planName: 'Florida Medicaid Managed Care', kind: 'medicaid' },
    { payerName: 'Oscar Health', planName: 'EPO', kind: 'marketplace' },
    { payerName: 'Ambetter', planName: 'Marketplace', kind: 'marketplace' },
  ],
  MA: [
    { payerName: 'Harvard Pilgrim Health Care', planName: 'HMO', kind: 'commercial' },
    { payerName: 'Tufts Health Plan', planName: 'Commercial HMO', kind: 'commercial' },
    { payerName: 'MassHealth', planName: 'Medicaid ACO', kind: 'medicaid' },
  ],
  AL: [
    { payerName: 'Viva Health', planName: 'Medicare Advantage HMO', kind: 'medicare' },
    { payerName: 'Alabama Medicaid', planName: 'Fee for Service', kind: 'medicaid' },
    { payerName: 'Ambetter', planName: 'Marketplace', kind: 'marketplace' },
  ],
  TX: [
    { payerName: 'Texas Medicaid Managed Care', planName: 'STAR', kind: 'medicaid' },
    { payerName: 'Oscar Health', planName: 'EPO', kind: 'marketplace' },
    { payerName: 'Ambetter', planName: 'Marketplace', kind: 'marketplace' },
  ],
  PA: [
    { payerName: 'UPMC Health Plan', planName: 'Commercial PPO', kind: 'commercial' },
    {
      payerName: 'Pennsylvania Medicaid Managed Care',
      planName: 'HealthChoices',
      kind: 'medicaid',
    },
  ],
};

function templatesFor(state: string): PlanTemplate[] {
  const blues = STATE_BLUES[state] ?? 'Blue Cross Blue Shield';
  return [
    { payerName: blues, planName: 'PPO', kind: 'commercial' },
    { payerName: 'Aetna', planName: 'PPO', kind: 'commercial' },
    { payerName: 'UnitedHealthcare', planName: 'Choice Plus', kind: 'commercial' },
    { payerName: 'Cigna', planName: 'Open Access Plus', kind: 'commercial' },
    { payerName: blues, planName: 'HMO', kind: 'commercial' },
    { payerName: 'Aetna', planName: 'HMO', kind: 'commercial' },
    { payerName: 'Humana Medicare Advantage', planName: 'HMO', kind: 'medicare' },
    { payerName: 'UnitedHealthcare Medicare Advantage', planName: 'PPO', kind: 'medicare' },
    ...(STATE_EXTRAS[state] ?? []),
  ];
}

const LEVELS: Record<PlanTemplate['kind'], [number, number]> = {
  commercial: [1.5, 2.6],
  marketplace: [1.2, 1.6],
  medicare: [1.0, 1.1],
  medicaid: [0.7, 0.9],
};

/**
 * Between 6 and 12 plans, in a stable order. The first four (the state's Blues PPO and the big
 * national commercial plans) are always there; the rest are drawn. One commercial plan pays
 * outpatient items as a percentage of billed charges, as many real contracts do.
 */
export function choosePlans(hospital: DemoHospital, rng: Rng): DemoPlan[] {
  const templates = templatesFor(hospital.state);
  const target = Math.min(templates.length, rng.int(6, 12));
  const chosen = templates.slice(0, 4);
  const rest = templates.slice(4);
  while (chosen.length < target && rest.length > 0) {
    const [picked] = rest.splice(rng.int(0, rest.length - 1), 1);
    if (picked !== undefined) chosen.push(picked);
  }
  const percentIndex = rng.int(0, 3);
  return chosen.map((template, index) => {
    const [low, high] = LEVELS[template.kind];
    return {
      payerName: template.payerName,
      planName: template.planName,
      level: rng.between(low, high),
      style: index === percentIndex ? 'percent of charges' : 'fee schedule',
      percentOfCharges: Math.round(rng.between(45, 75)),
      medicareBased: template.kind === 'medicare',
    };
  });
}
