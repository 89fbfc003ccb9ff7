import {
  DRUG_CODE_CATEGORIES,
  LINES_OF_BUSINESS,
  RATE_MIX_ORIGINS,
  codeCategory,
  canonicalPayer,
  effectiveAmount,
  isOriginalMedicare,
  lineOfBusiness,
  type LineOfBusiness,
  type RateMix,
} from '@ratelens/core';
import { isModifierOnly, type ChargeRecord, type PayerCharge } from '../model.ts';
import { arrayLiteral, copyNumber, copyText } from './copy-text.ts';

/** Where the COPY text of one table goes; a returned promise asks the caller to wait. */
export interface LineSink {
  write(line: string): Promise<void> | undefined;
}

/** What the inventory shows of a hospital's file, gathered while the rows stream past. */
export interface Summary {
  /** Charges and their payer rates; a modifier's record and its payer entries are stored, not counted. */
  items: number;
  rates: number;
  hasCash: boolean;
  hasCommercial: boolean;
  hasMedicare: boolean;
  hasInpatient: boolean;
  hasOutpatient: boolean;
  hasDrugs: boolean;
}

/** One entry of the code table, from the first item that uses the code. */
export interface CodeEntry {
  type: string;
  code: string;
  category: string;
  description: string | null;
}

/**
 * Codes seen are forgotten, and those with a description handed over, after this many new ones:
 * a chargemaster (CDM) code is often unique to its item, so a 1 GB file brings half a million
 * codes, too many to hold until the end.
 */
const CODE_BATCH = 20_000;

/** A payer and plan as a file names them, with what the names say: one row of payer_plans. */
export interface PayerPlanEntry {
  payerName: string;
  planName: string;
  canonicalPayer: string;
  lineOfBusiness: LineOfBusiness;
}

/** A payer/plan pair of the file: its payer_plans id as COPY text, and how many rates it has. */
interface PlanTally {
  id: string;
  canonicalPayer: string;
  lineOfBusiness: LineOfBusiness;
  /** Its rates are Medicare rates in the inventory, as Medicare Advantage's are. */
  originalMedicare: boolean;
  rates: number;
}

/** Billing class derived from the codes: the CMS templates carry none (docs/decisions/0011). */
export function billingClassOf(record: ChargeRecord): string {
  let drg = false;
  let procedure = false;
  let drug = false;
  for (const { type } of record.codes) {
    if (type.endsWith('DRG')) drg = true;
    else if (type === 'CPT' || type === 'HCPCS') procedure = true;
    else if (type === 'NDC') drug = true;
  }
  if (drg) return 'inpatient facility';
  if (!procedure && drug) return 'drugs';
  return record.setting === 'inpatient' ? 'inpatient' : 'outpatient';
}

/**
 * Turns charge records into the COPY text of charge_items, item_codes and negotiated_rates (the
 * columns of RATE_TABLES, hospital_id and mrf_file_id left to the tables' defaults), numbering
 * items and rates, and gathers the hospital's summary and the codes it uses on the way. A file
 * has a few dozen payer/plan pairs and a few thousand codes but millions of rates: the name
 * rules run once per distinct pair, and a rate carries the pair's id (payer_plans), not its names.
 */
export class RowEncoder {
  readonly summary: Summary = {
    items: 0,
    rates: 0,
    hasCash: false,
    hasCommercial: false,
    hasMedicare: false,
    hasInpatient: false,
    hasOutpatient: false,
    hasDrugs: false,
  };
  /** Codes not yet handed over, by code type, then code. */
  private readonly codes = new Map<string, Map<string, CodeEntry>>();
  private newCodes = 0;
  private handingOver: Promise<void> = Promise.resolve();
  /** The file's payer/plan pairs, by payer name, then plan name (the readers hand out the same string for the same name). */
  private readonly plans = new Map<string, Map<string, PlanTally>>();
  /** Rates by where their dollar figure comes from. */
  private readonly origins = Object.fromEntries(RATE_MIX_ORIGINS.map((o) => [o, 0])) as Record<
    (typeof RATE_MIX_ORIGINS)[number],
    number
  >;
  /** The ids of the rows written, charges and modifiers' records alike. */
  private lastItemId = 0;
  private lastRateId = 0;

  constructor(
    private readonly sinks: { items: LineSink; codes: LineSink; rates: LineSink },
    /** The payer_plans ids of payer/plan pairs, in their order (created when new). */
    private readonly payerPlanIds: (pairs: PayerPlanEntry[]) => Promise<number[]>,
    /**
     * Takes the codes seen that have a description to show (DRGs, named after the first item
     * using them), with their category, a batch at a time while the file is read; a code may come
     * again in a later batch. Runs while the encoder carries on; the next batch waits for it.
     */
    private readonly codeSink: (codes: CodeEntry[]) => Promise<void>,
  ) {}

  /** Hands over the last codes and waits until every batch has been taken. */
  async end(): Promise<void> {
    await this.handOverCodes();
    await this.handingOver;
  }

  private async handOverCodes(): Promise<void> {
    const entries: CodeEntry[] = [];
    for (const byCode of this.codes.values())
      for (const entry of byCode.values()) if (entry.description !== null) entries.push(entry);
    this.codes.clear();
    this.newCodes = 0;
    await this.handingOver;
    if (entries.length === 0) return;
    const handing = this.codeSink(entries);
    // Awaited by the next hand-over or by end(); until then a failure must not go unhandled.
    handing.catch(() => undefined);
    this.handingOver = handing;
  }

  async add(record: ChargeRecord): Promise<void> {
    if (record.continues !== undefined) return this.addRates(record.continues, record);
    const { sinks, summary } = this;
    const itemId = ++this.lastItemId;
    const gross = record.gross;
    let wait = sinks.items.write(
      `${itemId}\t${copyText(record.description)}\t${copyText(record.setting)}\t${billingClassOf(record)}\t` +
        `${copyText(arrayLiteral(record.modifiers))}\t${copyNumber(record.drugUnit)}\t${copyText(record.drugType)}\t` +
        `${copyNumber(gross)}\t${copyNumber(record.discountedCash)}\t${copyNumber(record.min)}\t` +
        `${copyNumber(record.max)}\t${copyText(record.genericNotes)}\n`,
    );
    if (wait) await wait;
    // What a modifier does is kept with the file but is no charge: no count, no flag, no rate mix.
    const charge = !isModifierOnly(record);
    if (!charge) return this.addModifierEntries(itemId, record.payers);
    summary.items++;
    if (record.discountedCash !== null) summary.hasCash = true;
    const setting = record.setting;
    if (setting === 'inpatient' || setting === 'both') summary.hasInpatient = true;
    if (setting === 'outpatient' || setting === 'both') summary.hasOutpatient = true;
    if (record.drugUnit !== null || record.drugType !== null) summary.hasDrugs = true;

    const codes = record.codes;
    for (let i = 0; i < codes.length; i++) {
      const { type, code } = codes[i] as (typeof codes)[number];
      if (isRepeat(codes, i)) continue;
      const entry = this.codeEntry(type, code, record.description);
      wait = sinks.codes.write(
        `${itemId}\t${copyText(type)}\t${copyText(code)}\t${copyText(entry.category)}\n`,
      );
      if (wait) await wait;
    }
    await this.addRates(itemId, record);
    if (this.newCodes >= CODE_BATCH) await this.handOverCodes();
  }

  /**
   * A charge's rates, under item `itemId`: its own, or an earlier record's that it continues (the
   * items are numbered as the reader numbers them, ChargeRecord.continues).
   */
  private async addRates(itemId: number, record: ChargeRecord): Promise<void> {
    if (itemId > this.lastItemId) throw new Error(`record continues item ${itemId}, not yet added`);
    if (isModifierOnly(record)) return this.addModifierEntries(itemId, record.payers);
    const { sinks, summary } = this;
    const gross = record.gross;
    const payers = record.payers;
    await this.resolvePlans(payers);
    for (const payer of payers) {
      const rateId = ++this.lastRateId;
      summary.rates++;
      const plan = this.plans.get(payer.payerName)?.get(payer.planName) as PlanTally;
      plan.rates++;
      const effective = effectiveAmount(payer, gross);
      this.origins[effective.origin ?? 'none']++;
      const dollar = copyNumber(payer.dollar);
      // The effective amount is most often the dollar amount: one number formatting, not two.
      const amount = effective.amount === payer.dollar ? dollar : copyNumber(effective.amount);
      // The inventory's flags are set by a rate with an amount, not by the plan's name alone (a
      // JSON file's `modifier_information` names plans with no price).
      if (effective.amount !== null) {
        if (plan.lineOfBusiness === 'commercial') summary.hasCommercial = true;
        // Medicare Advantage, or original Medicare (whose line of business is 'other').
        else if (plan.lineOfBusiness === 'medicare-advantage' || plan.originalMedicare)
          summary.hasMedicare = true;
      }
      const wait = sinks.rates.write(
        rateLine(rateId, itemId, plan.id, payer, dollar, amount, effective.origin),
      );
      if (wait) await wait;
    }
  }

  /** The new payer/plan pairs of a record, resolved together: one round trip, not one each. */
  private async resolvePlans(payers: readonly PayerCharge[]): Promise<void> {
    let unseen: PayerCharge[] | undefined;
    for (const payer of payers)
      if (this.plans.get(payer.payerName)?.get(payer.planName) === undefined)
        (unseen ??= []).push(payer);
    if (unseen) await this.addPayerPlans(unseen);
  }

  /** A modifier's payer entries: their descriptions (notes), and any amount the row gave. */
  private async addModifierEntries(itemId: number, payers: readonly PayerCharge[]): Promise<void> {
    await this.resolvePlans(payers);
    for (const payer of payers) {
      const plan = this.plans.get(payer.payerName)?.get(payer.planName) as PlanTally;
      const dollar = copyNumber(payer.dollar);
      // No effective amount: it is no price of a service, and the search must never show it.
      const line = rateLine(
        ++this.lastRateId,
        itemId,
        plan.id,
        payer,
        dollar,
        copyNumber(null),
        null,
      );
      const wait = this.sinks.rates.write(line);
      if (wait) await wait;
    }
  }

  private codeEntry(type: string, code: string, description: string): CodeEntry {
    let byCode = this.codes.get(type);
    if (byCode === undefined) {
      byCode = new Map();
      this.codes.set(type, byCode);
    }
    let entry = byCode.get(code);
    if (entry === undefined) {
      entry = {
        type,
        code,
        category: codeCategory(type, code),
        // Only DRG names are shown from the files (CPT text is AMA-copyrighted).
        description: type.endsWith('DRG') ? description : null,
      };
      byCode.set(code, entry);
      this.newCodes++;
      if (DRUG_CODE_CATEGORIES.includes(entry.category)) this.summary.hasDrugs = true;
    }
    return entry;
  }

  private async addPayerPlans(payers: readonly PayerCharge[]): Promise<void> {
    const pairs = new Map<string, PayerPlanEntry>();
    for (const { payerName, planName } of payers)
      pairs.set(`${payerName}\t${planName}`, {
        payerName,
        planName,
        canonicalPayer: canonicalPayer(payerName),
        lineOfBusiness: lineOfBusiness(payerName, planName),
      });
    const entries = [...pairs.values()];
    const ids = await this.payerPlanIds(entries);
    entries.forEach((entry, i) => {
      let byPlan = this.plans.get(entry.payerName);
      if (byPlan === undefined) {
        byPlan = new Map();
        this.plans.set(entry.payerName, byPlan);
      }
      byPlan.set(entry.planName, {
        id: String(ids[i]),
        canonicalPayer: entry.canonicalPayer,
        lineOfBusiness: entry.lineOfBusiness,
        originalMedicare: isOriginalMedicare(entry.payerName, entry.planName),
        rates: 0,
      });
    });
  }

  /** The file's rates by payer, plan, line of business and the origin of their dollar figure. */
  rateMix(): RateMix {
    const byLineOfBusiness = Object.fromEntries(LINES_OF_BUSINESS.map((l) => [l, 0])) as Record<
      LineOfBusiness,
      number
    >;
    const payers = new Set<string>();
    let plans = 0;
    for (const byPlan of this.plans.values()) {
      for (const plan of byPlan.values()) {
        // A plan named only by a modifier's entries has no rate.
        if (plan.rates === 0) continue;
        plans++;
        payers.add(plan.canonicalPayer);
        byLineOfBusiness[plan.lineOfBusiness] += plan.rates;
      }
    }
    return { payers: payers.size, plans, byLineOfBusiness, byOrigin: { ...this.origins } };
  }
}

/** One negotiated_rates row as COPY text, the dollar and effective amounts formatted already. */
function rateLine(
  rateId: number,
  itemId: number,
  planId: string,
  payer: PayerCharge,
  dollar: string,
  amount: string,
  origin: string | null,
): string {
  return (
    `${rateId}\t${itemId}\t${planId}\t${copyText(payer.methodology)}\t${dollar}\t` +
    `${copyNumber(payer.percentage)}\t${copyText(payer.algorithm)}\t${copyNumber(payer.estimatedAmount)}\t` +
    `${copyNumber(payer.median)}\t${copyNumber(payer.p10)}\t${copyNumber(payer.p90)}\t` +
    `${copyText(payer.count)}\t${copyText(payer.notes)}\t${amount}\t${copyText(origin)}\n`
  );
}

/** A code listed twice on one item (the key of item_codes is the item, type and code). */
function isRepeat(codes: ChargeRecord['codes'], i: number): boolean {
  const { type, code } = codes[i] as (typeof codes)[number];
  for (let j = 0; j < i; j++) {
    const other = codes[j] as (typeof codes)[number];
    if (other.type === type && other.code === code) return true;
  }
  return false;
}
