import type { ValidationReport } from '../validate/report.ts';

const counting = new Intl.NumberFormat('en-US');

/** How much of an unknown field's first value the report shows. */
const MAX_VALUE = 40;

/**
 * The fields each object of a CMS JSON file may have, in any version from 2.0 to 3.0 (the
 * schemas in cms-hpt-examples, plus `general_contract_provisions`, which the v3.0 example writes),
 * and what the report calls many of them. The reader reads every version's fields whatever the
 * file declares, so one set serves all versions.
 */
const JSON_OBJECTS = {
  file: {
    fields: new Set([
      'hospital_name',
      'last_updated_on',
      'version',
      'location_name',
      'hospital_location',
      'hospital_address',
      'license_information',
      'type_2_npi',
      'attestation',
      'affirmation',
      'general_contract_provisions',
      'standard_charge_information',
      'modifier_information',
    ]),
    many: 'files',
  },
  license: { fields: new Set(['license_number', 'state']), many: 'licences' },
  attestation: {
    fields: new Set([
      'attestation',
      'attester_name',
      'confirm_attestation',
      'affirmation',
      'confirm_affirmation',
    ]),
    many: 'attestations',
  },
  item: {
    fields: new Set(['description', 'code_information', 'drug_information', 'standard_charges']),
    many: 'items',
  },
  code: { fields: new Set(['code', 'type']), many: 'codes' },
  drug: { fields: new Set(['unit', 'type']), many: 'drug_information objects' },
  charge: {
    fields: new Set([
      'setting',
      'modifier_code',
      'gross_charge',
      'discounted_cash',
      'minimum',
      'maximum',
      'payers_information',
      'additional_generic_notes',
    ]),
    many: 'standard charges',
  },
  payer: {
    fields: new Set([
      'payer_name',
      'plan_name',
      'standard_charge_dollar',
      'standard_charge_percentage',
      'standard_charge_algorithm',
      'methodology',
      'estimated_amount',
      'median_amount',
      '10th_percentile',
      '90th_percentile',
      'count',
      'additional_payer_notes',
    ]),
    many: 'payer entries',
  },
  modifier: {
    fields: new Set(['code', 'description', 'setting', 'modifier_payer_information']),
    many: 'modifiers',
  },
  modifierPayer: {
    fields: new Set(['payer_name', 'plan_name', 'description']),
    many: 'modifier payer entries',
  },
} as const satisfies Record<string, { fields: ReadonlySet<string>; many: string }>;

type JsonObjectKind = keyof typeof JSON_OBJECTS;

/**
 * A value as the report shows it: a scalar as JSON, cut; a list or object by its size, without
 * writing out what may be megabytes (a misspelt `standard_charges_information` holds the items).
 */
function shortly(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${counting.format(value.length)}`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    const named = keys
      .slice(0, 3)
      .map((k) => JSON.stringify(k))
      .join(', ');
    return `an object with ${keys.length > 3 ? `${named}, …` : named || 'no fields'}`;
  }
  const shown = JSON.stringify(value) ?? String(value);
  return shown.length > MAX_VALUE ? `${shown.slice(0, MAX_VALUE - 1)}…` : shown;
}

interface Unknown {
  location: string;
  detail: string;
  count: number;
  many: string;
}

/**
 * Fields the schemas do not define, which the reader does not read. The schemas allow them, but a
 * misspelt field (`gross_charges`) loses its values, so each is reported as `json.unknown-field`:
 * once per field and kind of object, where it was first, with its first value and in how many
 * objects it was (AdventHealth's `billing_class` is in all 23,864 of its standard charges).
 */
export class UnknownFields {
  private readonly seen = new Map<string, Unknown>();

  check(object: Record<string, unknown>, kind: JsonObjectKind, location: string): void {
    const known: ReadonlySet<string> = JSON_OBJECTS[kind].fields;
    for (const key in object) {
      if (!known.has(key)) this.note(kind, key, object[key], location);
    }
  }

  private note(kind: JsonObjectKind, key: string, value: unknown, location: string): void {
    const id = `${kind}\u0000${key}`;
    const seen = this.seen.get(id);
    if (seen) {
      seen.count++;
      return;
    }
    this.seen.set(id, {
      location,
      detail: `${JSON.stringify(key)}: ${shortly(value)}`,
      count: 1,
      many: JSON_OBJECTS[kind].many,
    });
  }

  /** Adds one warning per unknown field, in the order they were first seen. */
  report(report: ValidationReport): void {
    for (const { location, detail, count, many } of this.seen.values()) {
      const times = count > 1 ? ` (in ${counting.format(count)} ${many})` : '';
      report.add('json.unknown-field', location, detail + times);
    }
  }
}
