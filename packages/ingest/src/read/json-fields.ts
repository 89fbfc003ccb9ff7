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

/** The top-level fields of a CMS JSON file. */
export const FILE_FIELDS: ReadonlySet<string> = JSON_OBJECTS.file.fields;

/** The fields of an item, by which a broken list of items tells where an item starts. */
export const ITEM_FIELDS: ReadonlySet<string> = JSON_OBJECTS.item.fields;

/** The fields of the objects inside an item: codes, drug information, charges, payer entries. */
export const INSIDE_ITEM_FIELDS: ReadonlySet<string> = new Set([
  ...JSON_OBJECTS.code.fields,
  ...JSON_OBJECTS.drug.fields,
  ...JSON_OBJECTS.charge.fields,
  ...JSON_OBJECTS.payer.fields,
]);

/**
 * A field's name with what does not change its meaning taken out: letter case (camelCase too),
 * spaces, hyphens and dots as underscores, and a plural's s ("standard_charges_information",
 * "Payer_Name", "payerName" are CMS's standard_charge_information, payer_name).
 */
export function looseFieldName(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .trim()
    .replace(/[\s.-]+/g, '_')
    .replace(/s(?=_|$)/g, '');
}

/** Each kind's fields by their loose names. */
const LOOSE_FIELDS = new Map(
  Object.entries(JSON_OBJECTS).map(([kind, { fields }]) => [
    kind,
    new Map([...fields].map((field) => [looseFieldName(field), field])),
  ]),
);

/**
 * Other names files give an object's lists, by their loose names, that can mean only that list:
 * `payers`, `payers_info`, `codes`, `charges`. Kept to names a reader of the file would take for
 * the list without a second thought; a name that may be anything else (`rates`, `data`) is no
 * one's guess to make. Read as the list only when the value is a list or an object: `"payer":
 * "Aetna"` is no list of payers.
 */
const OTHER_NAMES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  [
    'item',
    new Map([
      ['code', 'code_information'],
      ['code_info', 'code_information'],
      ['charge', 'standard_charges'],
    ]),
  ],
  [
    'charge',
    new Map([
      ['payer', 'payers_information'],
      ['payer_info', 'payers_information'],
      ['payer_list', 'payers_information'],
    ]),
  ],
]);

/** A payer entry's fields that give its rate: one of them, or the payer's name, makes a rate. */
const RATE_FIELDS = [
  'standard_charge_dollar',
  'standard_charge_percentage',
  'standard_charge_algorithm',
];

/** A CMS field a name not its own stands for, and what reading it so is said as. */
interface Respelling {
  field: string;
  rule: 'json.field-spelling' | 'json.field-other-name';
}

/**
 * An entry written in the fields of the object that should hold it in a list: a payer's rate in
 * its standard charge's, not in `payers_information`; an item's code in the item's, not in
 * `code_information`. The entry it makes (CMS's names), and its fields as the file wrote them.
 */
export interface EntryInFields {
  entry: Record<string, unknown>;
  written: string[];
}

/**
 * A value as the report shows it: a scalar as JSON, cut; a list or object by its size, without
 * writing out what may be megabytes (an unknown `charge_list` may hold the items).
 */
export function shortly(value: unknown): string {
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

/**
 * The keys of the objects in a value, however deep: walked with a list of what is left rather
 * than by recursion, since a field no schema defines may hold lists nested thousands deep, which
 * JSON.parse reads and a recursive walk ran out of stack on (the whole file was refused).
 */
export function keysIn(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let n = 0;
  const left: object[] = [value];
  for (let next = left.pop(); next !== undefined; next = left.pop()) {
    const list = Array.isArray(next);
    const values: unknown[] = list ? (next as unknown[]) : Object.values(next);
    if (!list) n += values.length;
    for (const entry of values) if (typeof entry === 'object' && entry !== null) left.push(entry);
  }
  return n;
}

/** Whether a JSON value was written: not left out, null or blank text (read as left out). */
export function written(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && !value.trim());
}

/** Whether a list has entries, or another value is written (an object read as a list of one). */
function hasEntries(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : written(value);
}

/**
 * Whether a standard charge's fields that are a payer entry's make a rate: one when they name a
 * payer or give a rate (a dollar amount, percentage or algorithm), the charge's one rate as
 * written; beside a `payers_information` with entries, only when they do both, a whole rate, for a
 * methodology or notes alone there are more likely the charge's own than a rate left out of the
 * list.
 */
function makesRate(entry: Record<string, unknown>, charge: Record<string, unknown>): boolean {
  const named = written(entry.payer_name);
  const priced = RATE_FIELDS.some((field) => written(entry[field]));
  return hasEntries(charge.payers_information) ? named && priced : named || priced;
}

/**
 * Whether an item's fields that are a code's (`"code": "99213", "type": "CPT"`) make its code:
 * when it has no `code_information` with entries and the code is written, as text or a number.
 * A type alone makes none.
 */
function makesCode(entry: Record<string, unknown>, item: Record<string, unknown>): boolean {
  const code = entry.code;
  return (
    !hasEntries(item.code_information) &&
    (typeof code === 'number' || (typeof code === 'string' && written(code)))
  );
}

interface Unknown {
  rule: 'json.unknown-field' | Respelling['rule'];
  location: string;
  detail: string;
  count: number;
  many: string;
}

/**
 * Fields the schemas do not define, which the reader does not read. The schemas allow them, but
 * a field of another name (`gross_amount`) loses its values, so each is reported as
 * `json.unknown-field`: once per field and kind of object, where it was first, with its first
 * value and in how many objects it was (AdventHealth's `billing_class` is in all 23,864 of its
 * standard charges). A CMS field written another way (`Gross_Charge`) is read as that field, and
 * so is a list under another name that can mean only it (`payers`, OTHER_NAMES).
 */
export class UnknownFields {
  /**
   * The keys of every object checked, and of the objects inside fields it does not know: the JSON
   * reader compares them with the keys the text had, to find a key written twice in one object.
   */
  keys = 0;
  private readonly seen = new Map<string, Unknown>();
  /** Names not of their kind, and the CMS field each stands for (or null). */
  private readonly spellings = new Map<JsonObjectKind, Map<string, Respelling | null>>();

  /**
   * Reports the object's fields the schemas do not define; one that is a CMS field written
   * another way, or a list under another name (a list or an object as its value), when the object
   * lacks that field, is copied to it and read (said once per name and kind, as
   * `json.field-spelling` or `json.field-other-name`). A standard charge's fields that are a
   * payer entry's (`payer_name`, `standard_charge_dollar`, …) are returned as the rate they make,
   * when they make one (makesRate), and an item's that are a code's (`code`, `type`) as the code
   * they make (makesCode), for the reader to read and say.
   */
  check(
    object: Record<string, unknown>,
    kind: JsonObjectKind,
    location: string,
  ): EntryInFields | undefined {
    const known: ReadonlySet<string> = JSON_OBJECTS[kind].fields;
    let respelt: [string, string][] | undefined;
    // The kind of entry this kind's own fields may hold (see entryIn).
    const entryKind = kind === 'charge' ? 'payer' : kind === 'item' ? 'code' : null;
    let entryFields: [string, string][] | undefined;
    for (const key in object) {
      this.keys++;
      if (known.has(key)) continue;
      const value = object[key];
      const respelling = this.respelling(kind, key);
      if (
        respelling !== null &&
        (respelling.rule === 'json.field-spelling' ||
          (typeof value === 'object' && value !== null)) &&
        !(respelling.field in object) &&
        !respelt?.some(([, f]) => f === respelling.field)
      ) {
        (respelt ??= []).push([key, respelling.field]);
        this.note(
          respelling.rule,
          kind,
          key,
          `${JSON.stringify(key)} for ${respelling.field}`,
          location,
        );
        continue;
      }
      const entryField = entryKind === null ? null : this.spelled(entryKind, key);
      if (entryField !== null && !entryFields?.some(([, f]) => f === entryField)) {
        (entryFields ??= []).push([key, entryField]);
        continue;
      }
      this.unknown(kind, key, value, location);
    }
    // Copied once the keys are counted: a key added while for…in runs may or may not be visited.
    if (respelt) for (const [key, field] of respelt) object[field] = object[key];
    if (entryFields === undefined) return undefined;
    return this.entryIn(kind === 'charge' ? 'charge' : 'item', object, entryFields, location);
  }

  /**
   * The entry a standard charge's or an item's own fields make (makesRate, makesCode), with its
   * fields as written; fields that make none are unknown fields, as any other.
   */
  private entryIn(
    kind: 'charge' | 'item',
    object: Record<string, unknown>,
    fields: readonly [string, string][],
    location: string,
  ): EntryInFields | undefined {
    const entry: Record<string, unknown> = {};
    for (const [key, field] of fields) entry[field] = object[key];
    if (kind === 'charge' ? makesRate(entry, object) : makesCode(entry, object))
      return { entry, written: fields.map(([key]) => key) };
    for (const [key] of fields) this.unknown(kind, key, object[key], location);
    return undefined;
  }

  /**
   * The CMS field of that kind a name not its own stands for, or null: a top-level key is
   * mapped as it is read, before its value, so that `standard_charges_information` is streamed.
   */
  spelled(kind: JsonObjectKind, key: string): string | null {
    const respelling = this.respelling(kind, key);
    return respelling?.rule === 'json.field-spelling' ? respelling.field : null;
  }

  /** The CMS field of that kind a name not its own stands for (looked up once), or null. */
  private respelling(kind: JsonObjectKind, key: string): Respelling | null {
    let ofKind = this.spellings.get(kind);
    if (ofKind === undefined) {
      ofKind = new Map();
      this.spellings.set(kind, ofKind);
    }
    let respelling = ofKind.get(key);
    if (respelling === undefined) {
      const loose = looseFieldName(key);
      const spelt = LOOSE_FIELDS.get(kind)?.get(loose);
      const other = OTHER_NAMES.get(kind)?.get(loose);
      respelling =
        spelt !== undefined
          ? { field: spelt, rule: 'json.field-spelling' }
          : other !== undefined
            ? { field: other, rule: 'json.field-other-name' }
            : null;
      ofKind.set(key, respelling);
    }
    return respelling;
  }

  /** Notes a field the reader does not read, and counts the keys inside its value. */
  private unknown(kind: JsonObjectKind, key: string, value: unknown, location: string): void {
    this.keys += keysIn(value);
    this.note(
      'json.unknown-field',
      kind,
      key,
      `${JSON.stringify(key)}: ${shortly(value)}`,
      location,
    );
  }

  /** Says a top-level key read as the CMS field it spells another way. */
  renamed(key: string, field: string): void {
    this.note('json.field-spelling', 'file', key, `${JSON.stringify(key)} for ${field}`, 'file');
  }

  private note(
    rule: Unknown['rule'],
    kind: JsonObjectKind,
    key: string,
    detail: string,
    location: string,
  ): void {
    const id = `${kind}\u0000${key}`;
    const seen = this.seen.get(id);
    if (seen) {
      seen.count++;
      return;
    }
    this.seen.set(id, { rule, location, detail, count: 1, many: JSON_OBJECTS[kind].many });
  }

  /** Adds one warning per unknown or respelt field, in the order they were first seen. */
  report(report: ValidationReport): void {
    for (const { rule, location, detail, count, many } of this.seen.values()) {
      const times = count > 1 ? ` (in ${counting.format(count)} ${many})` : '';
      report.add(rule, location, detail + times);
    }
  }
}
