import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { MrfFormat } from '../model.ts';
import { demoHeader, demoItems, demoModifiers, hospitalProfile } from './charges.ts';
import { FileSink } from './file-sink.ts';
import type { DemoPlan } from './payers.ts';
import { DEMO_HOSPITALS, demoAddress, demoFileName, type DemoHospital } from './hospitals.ts';
import { writeMrf, type WriteCounts } from './write-mrf.ts';

export interface GenerateDemoOptions {
  outDir: string;
  /** Same seed, same bytes. Default 1. */
  seed?: number;
  /** Each unit repeats the catalogue once more as chargemaster variants. Default 1. */
  scale?: number;
  /** Called as the files grow, with the bytes written to the current file. */
  onProgress?: (file: string, bytes: number) => void;
}

export interface DemoManifestEntry extends WriteCounts {
  hospitalName: string;
  state: string;
  city: string;
  zip: string;
  address: string;
  countyFips: string;
  /** The CBSA the ZIP should geocode to; null for a county outside any CBSA. */
  cbsa: string | null;
  hospitalType: string;
  healthSystemType: string;
  path: string;
  format: MrfFormat;
  bytes: number;
}

export interface DemoManifest {
  seed: number;
  scale: number;
  hospitals: DemoManifestEntry[];
  totals: WriteCounts & { files: number; bytes: number };
}

/** Chargemaster lines per catalogue item that keep its CPT/HCPCS/DRG codes when scaled. */
const CODED_VARIANTS = 3;

/** Writes one CMS v3.0.0 file per demo hospital into outDir. */
export async function generateDemo(options: GenerateDemoOptions): Promise<DemoManifest> {
  const seed = options.seed ?? 1;
  const scale = options.scale ?? 1;
  if (!Number.isInteger(scale) || scale < 1) {
    throw new RangeError(`scale must be a positive integer, got ${scale}`);
  }
  await mkdir(options.outDir, { recursive: true });
  const hospitals: DemoManifestEntry[] = [];
  for (const hospital of DEMO_HOSPITALS) {
    const path = join(options.outDir, demoFileName(hospital, hospital.format));
    const onProgress = options.onProgress;
    const written = await writeHospitalFile(hospital, hospital.format, path, {
      seed,
      variants: scale,
      codedVariants: CODED_VARIANTS,
      onFlush: onProgress && ((bytes) => onProgress(path, bytes)),
    });
    hospitals.push({
      hospitalName: hospital.name,
      state: hospital.state,
      city: hospital.city,
      zip: hospital.zip,
      address: demoAddress(hospital),
      countyFips: hospital.countyFips,
      cbsa: hospital.cbsa,
      hospitalType: hospital.hospitalType,
      healthSystemType: hospital.healthSystemType,
      path,
      format: hospital.format,
      ...written,
    });
  }
  const totals = { files: hospitals.length, items: 0, standardCharges: 0, rates: 0, bytes: 0 };
  for (const entry of hospitals) {
    totals.items += entry.items;
    totals.standardCharges += entry.standardCharges;
    totals.rates += entry.rates;
    totals.bytes += entry.bytes;
  }
  return { seed, scale, hospitals, totals };
}

export interface GenerateLargeFileOptions {
  path: string;
  format: 'json' | 'csv-tall' | 'csv-wide';
  /** The file stops growing after the item that reaches this size. */
  targetBytes: number;
  seed?: number;
  /**
   * Payer/plan pairs, every item priced for each: the demo hospital's own 6 to 12 when unset.
   * More (their names numbered: "PPO 2") for a wide CSV with as many column groups.
   */
  plans?: number;
  onProgress?: (bytes: number) => void;
}

/** One valid CMS v3.0.0 file of (at least) targetBytes, for ingest benchmarks. */
export async function generateLargeFile(
  options: GenerateLargeFileOptions,
): Promise<WriteCounts & { path: string; bytes: number }> {
  const hospital = DEMO_HOSPITALS[0];
  if (hospital === undefined) throw new Error('no demo hospital');
  await mkdir(dirname(options.path), { recursive: true });
  const written = await writeHospitalFile(hospital, options.format, options.path, {
    seed: options.seed ?? 1,
    variants: Infinity,
    stopAtBytes: options.targetBytes,
    ...(options.plans === undefined ? {} : { plans: options.plans }),
    onFlush: options.onProgress,
  });
  return { path: options.path, ...written };
}

async function writeHospitalFile(
  hospital: DemoHospital,
  format: MrfFormat,
  path: string,
  options: {
    seed: number;
    variants: number;
    codedVariants?: number;
    stopAtBytes?: number;
    plans?: number;
    onFlush: ((bytes: number) => void) | undefined;
  },
): Promise<WriteCounts & { bytes: number }> {
  const own = hospitalProfile(hospital, String(options.seed));
  const profile =
    options.plans === undefined ? own : { ...own, plans: numberedPlans(own.plans, options.plans) };
  const sink = new FileSink(path, options.onFlush);
  try {
    const counts = await writeMrf(sink, format, {
      header: demoHeader(profile, format),
      plans: profile.plans,
      modifiers: demoModifiers(profile),
      items: demoItems(profile, options.variants, options.codedVariants),
      ...(options.stopAtBytes === undefined ? {} : { stopAtBytes: options.stopAtBytes }),
    });
    return { ...counts, bytes: sink.bytes };
  } finally {
    await sink.close();
  }
}

/** `count` plans: the given ones, then the same again with numbered names ("PPO 2", "PPO 3"…). */
function numberedPlans(plans: readonly DemoPlan[], count: number): DemoPlan[] {
  return Array.from({ length: count }, (_, i) => {
    const plan = plans[i % plans.length] as DemoPlan;
    const round = Math.floor(i / plans.length);
    return round === 0 ? plan : { ...plan, planName: `${plan.planName} ${round + 1}` };
  });
}
