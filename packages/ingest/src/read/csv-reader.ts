import {
  isModifierOnly,
  type ChargeRecord,
  type CmsVersion,
  type CodeRef,
  type MrfHeader,
  type PayerCharge,
} from '../model.ts';
import {
  checkDrugInformation,
  minMaxUnreadable,
  checkPayer,
  checkRecord,
  needsSetting,
  type RuleContext,
} from '../validate/record-rules.ts';
import { ValidationReport } from '../validate/report.ts';
import { CsvRowSplitter } from './csv-rows.ts';
import { Utf8OrCp1252Decoder } from './decode.ts';
import { MrfReadError } from './errors.ts';
import { checkHeader, checkStatement, emptyHeader, readNpis, resolveVersion } from './header.ts';
import {
  CODE_TYPES_V2_SET,
  CODE_TYPES_V3_SET,
  NameNormaliser,
  cmsVersion,
  codeType,
  codeValue,
  drugType,
  numberOrNull,
  allowedAmount,
  amount,
  confirmation,
  CHARGE,
  DRUG_UNIT,
  ALLOWED,
  PERCENT,
  isoDate,
  isPlaceholder,
  methodology,
  modifierCodes,
  setting,
  splitPipes,
  text,
} from './normalise.ts';
import { keepOrReject, type FormatParser } from './parser.ts';

/** Column indexes of one payer/plan (wide: one set per pair; tall: the single payer columns). */
interface PayerColumns {
  payerName: string;
  planName: string;
  /**
   * What a wide payer's rate adds to its row's place in a report (", Aetna | PPO"), so that its
   * issues name the payer and plan as a JSON file's name the payer entry; made once, not for each
   * rate. '' for a tall file, whose row names its payer.
   */
  place: string;
  payer: number;
  plan: number;
  dollar: number;
  percentage: number;
  algorithm: number;
  methodology: number;
  estimated: number;
  median: number;
  p10: number;
  p90: number;
  count: number;
  notes: number;
}

interface Layout {
  tall: boolean;
  width: number;
  description: number;
  codes: { n: number; code: number; type: number }[];
  modifiers: number;
  setting: number;
  drugUnit: number;
  drugType: number;
  gross: number;
  cash: number;
  min: number;
  max: number;
  genericNotes: number;
  /**
   * A tall file's additional_generic_notes when it has no additional_payer_notes (the templates
   * have none): CMS's tall layout writes a rate's notes there, so they go with the row's rate,
   * not with the charge, and rows of one charge may differ in them. -1 otherwise.
   */
  rateNotes: number;
  payers: PayerColumns[];
  /** Columns whose values identify the charge: consecutive tall rows equal on these are grouped. */
  itemColumns: number[];
  /** Columns that hold an amount (charges, rates, percentiles): a letter there means a shift. */
  amountColumns: number[];
  /**
   * Columns that hold a word (a setting, a code type, a drug unit type, a methodology): a number
   * there, in a row short of values, means a value was left out before it (see `misfitColumn`).
   */
  wordColumns: number[];
  /** The columns' names as written, trimmed, to name one in a report. */
  names: string[];
  /**
   * A wide file's methodology and payer notes columns that name no payer, read as their own by
   * the payers without one (`sharePayerlessColumns`); -1 when there is none. On a row, such a
   * column alone makes no payer's rate: it is every such payer's.
   */
  sharedMethodology: number;
  sharedNotes: number;
}

// Tables of column names are Maps: a column named "constructor" finds nothing in them, where an
// object would give it Object's own.
/** A payer's column: its index in PayerColumns. */
type PayerField = Exclude<keyof PayerColumns, 'payerName' | 'planName' | 'place'>;

const PAYER_SUFFIXES = new Map<string, PayerField>([
  ['negotiated_dollar', 'dollar'],
  ['negotiated_percentage', 'percentage'],
  ['negotiated_algorithm', 'algorithm'],
  ['methodology', 'methodology'],
]);
/**
 * A payer's columns that a wide file may name without a payer (a tall file's names): the
 * methodology and the notes are shared by the payers that have none (`sharePayerlessColumns`),
 * the others are not read.
 */
const PAYERLESS_FIELDS: readonly PayerField[] = [
  'plan',
  'dollar',
  'percentage',
  'algorithm',
  'methodology',
  'estimated',
  'median',
  'p10',
  'p90',
  'count',
  'notes',
];
const PAYER_PREFIXES = new Map<string, PayerField>([
  ['estimated_amount', 'estimated'],
  ['median_amount', 'median'],
  ['10th_percentile', 'p10'],
  ['90th_percentile', 'p90'],
  ['count', 'count'],
  ['additional_payer_notes', 'notes'],
]);
const GENERIC_STANDARD_CHARGE = new Set([
  'gross',
  'discounted_cash',
  'min',
  'max',
  'negotiated_dollar',
  'negotiated_percentage',
  'negotiated_algorithm',
  'methodology',
]);

function emptyPayerColumns(payerName: string, planName: string): PayerColumns {
  return {
    payerName,
    planName,
    place: payerName === '' ? '' : `, ${payerName} | ${planName}`,
    payer: -1,
    plan: -1,
    dollar: -1,
    percentage: -1,
    algorithm: -1,
    methodology: -1,
    estimated: -1,
    median: -1,
    p10: -1,
    p90: -1,
    count: -1,
    notes: -1,
  };
}

/**
 * The JSON template's names of a charge's and a rate's fields, which some CSV files use as column
 * names, and the CSV template's names for them.
 */
const JSON_FIELD_COLUMNS: ReadonlyMap<string, string> = new Map([
  ['gross_charge', 'standard_charge|gross'],
  ['discounted_cash', 'standard_charge|discounted_cash'],
  ['minimum', 'standard_charge|min'],
  ['maximum', 'standard_charge|max'],
  ['standard_charge_dollar', 'standard_charge|negotiated_dollar'],
  ['standard_charge_percentage', 'standard_charge|negotiated_percentage'],
  ['standard_charge_algorithm', 'standard_charge|negotiated_algorithm'],
  ['methodology', 'standard_charge|methodology'],
]);

/**
 * Other names files give the last part of a `standard_charge|…` column (its field, in a tall or
 * wide file), read as CMS's name: `standard_charge|minimum`, `standard_charge|gross_charge`,
 * `standard_charge|Aetna|PPO|negotiated_percent`.
 */
const STANDARD_CHARGE_OTHER_NAMES: ReadonlyMap<string, string> = new Map([
  ['gross_charge', 'gross'],
  ['gross_charges', 'gross'],
  ['cash', 'discounted_cash'],
  ['cash_price', 'discounted_cash'],
  ['discounted_cash_price', 'discounted_cash'],
  ['minimum', 'min'],
  ['maximum', 'max'],
  ['negotiated_dollars', 'negotiated_dollar'],
  ['negotiated_rate', 'negotiated_dollar'],
  ['negotiated_percent', 'negotiated_percentage'],
  ['negotiated_pct', 'negotiated_percentage'],
  ['negotiated_algorithms', 'negotiated_algorithm'],
  ['standard_charge_methodology', 'methodology'],
]);

/**
 * Other names tall files give a column of one part, read as CMS's name. `payer` and `plan` are
 * read so only where no column names a wide payer: there they are no payer_name, and the file is
 * read as wide without them.
 */
const TALL_OTHER_NAMES: ReadonlyMap<string, string> = new Map([
  ['payer', 'payer_name'],
  ['plan', 'plan_name'],
  ['modifier', 'modifiers'],
]);

/** "Code | 1 | Type " → ["Code", "1", "Type"]; see `keywords` for the lower-case names. */
function columnParts(raw: string): string[] {
  return raw.split('|').map((p) => p.trim());
}

/** Whether a column name has spaces around it or around its pipes ("code | 1"). */
function hasStraySpaces(raw: string, parts: readonly string[]): boolean {
  return raw.length !== parts.reduce((length, part) => length + part.length, parts.length - 1);
}

/** The CMS templates' column keywords, which some files write with spaces ("Hospital Name"). */
const KEYWORDS: ReadonlySet<string> = new Set([
  ...PAYER_SUFFIXES.keys(),
  ...PAYER_PREFIXES.keys(),
  ...GENERIC_STANDARD_CHARGE,
  'standard_charge',
  'description',
  'modifiers',
  'setting',
  'drug_unit_of_measurement',
  'drug_type_of_measurement',
  'additional_generic_notes',
  'payer_name',
  'plan_name',
  'hospital_name',
  'last_updated_on',
  'location_name',
  'hospital_location',
  'hospital_address',
  'license_number',
  'type_2_npi',
  'attester_name',
  'general_contract_provisions',
  'version',
  'code',
  'type',
]);

/**
 * Whether the row is, cell for cell, the one kept (its first cell compared first: cheap). A file
 * joined to another may carry the second one's byte-order mark at the start of the row.
 */
function isRow(fields: string[], row: { first: string; whole: string }): boolean {
  const first = (fields[0] ?? '').replace(/^\uFEFF/, '');
  return first === row.first && [first, ...fields.slice(1)].join(',') === row.whole;
}

const BOM = 0xfeff;
/**
 * The most rates one tall charge gathers before it is passed on and the rest of its rows start
 * another charge with the same fields (real files have tens per charge, AdventHealth's JSON 50).
 */
export const MAX_RATES_PER_RECORD = 20_000;
/**
 * How many charges the reader remembers to find a later row of one (a file sorted by payer
 * writes each charge once per payer): a number each (chargeKey), about 5 MB in all. A charge
 * whose rows are further apart is read as another charge with the same values.
 */
export const RECENT_CHARGES = 100_000;
/** The most payer and plan pairs numbered at once (`planId`; a real file has tens). */
const MAX_PLANS = 50_000;
/**
 * How many records before a record the reader keeps, and how many of their rates at most, to
 * compare its rates with theirs when it continues one of them (`dropRepeatedRates`): the parts of
 * a tall charge of a million rates would otherwise all be held.
 */
const RECENT_PARTS = 16;
const RECENT_PART_RATES = MAX_RATES_PER_RECORD;
const ATTESTATION_START = 'to the best of its knowledge and belief';

/** Header rows, then charges, of the CMS tall and wide CSV templates (v2.0–v3.0). */
export class CsvMrfParser implements FormatParser {
  header: MrfHeader | null = null;
  readonly out: ChargeRecord[] = [];

  private readonly decoder = new Utf8OrCp1252Decoder();
  private readonly splitter = new CsvRowSplitter(
    (fields, line, end, loneCrText) => this.onRow(fields, line, end, loneCrText),
    (line) => this.report.add('csv.unterminated-quote', `row ${line}`),
    (line) => {
      this.report.add('csv.row-too-long', `row ${line}`);
      this.report.rejectedRecords++;
    },
    (line, value) => this.report.add('csv.inner-quote', `row ${line}`, JSON.stringify(value)),
    (line, value) => this.report.add('csv.excel-text', `row ${line}`, value.slice(0, 80)),
    (line, value) => {
      if (this.spacedQuoteSaid) return;
      this.spacedQuoteSaid = true;
      this.report.add('csv.spaced-quote', `row ${line}`, JSON.stringify(value.slice(0, 80)));
    },
  );
  private readonly names: NameNormaliser;
  private rowIndex = 0;
  /** Titles or notes read past above the header rows (see isTitleLine). */
  private titleLines = 0;
  private headerNames: string[] = [];
  /** The header names as written: the attestation's is its statement. */
  private headerNamesWritten: string[] = [];
  private layout: Layout | null = null;
  private ctx: RuleContext | null = null;
  private codeTypes: ReadonlySet<string> = CODE_TYPES_V3_SET;
  private fieldCountWarned = false;
  /** Whether a value quoted after blanks was said (`csv.spaced-quote`, once a file). */
  private spacedQuoteSaid = false;
  /**
   * The description of the last charge read when it had a description and a code, else null:
   * a row after it with neither is said as a fill-down export's (`sayFillDown`), once a file.
   */
  private namedAbove: string | null = null;
  private fillDownSaid = false;
  /**
   * How many values the file's rows have: the first's, when any past the columns are empty (some
   * files write a comma after the last value), or else as many as the columns.
   */
  private usualWidth = -1;
  /** The file's own first and third rows, to know them when an export writes them again. */
  private namesRow = { first: '', whole: '' };
  private columnsRow = { first: '', whole: '' };
  /** Where in a repeated header block the reader is: its values row, then its columns row. */
  private repeat: 'none' | 'values' | 'columns' = 'none';
  private lineEnds: 'unknown' | 'lf' | 'cr' | 'lf-cr' = 'unknown';
  /** Whether every line ends with a `;` after its last value (see endsWithSemicolon). */
  private semicolonEnds = false;
  /** In a file of LF CR line ends, whether the text so far ended with an LF whose CR is to come. */
  private lfPending = false;
  /** Lines read so far that ended with CR alone in a file of LF lines: the splitter counts none. */
  private loneCrLines = 0;
  /** An empty row after the first, until the next says whether it is the values row. */
  private heldBlank: { fields: string[]; line: number } | null = null;
  /** Text held until its first line end says which kind the file uses. */
  private undecided = '';

  /**
   * Charges passed on, by their item values (`chargeKey`), the most recent RECENT_CHARGES: the
   * item number times KEY_CHECKS plus `keyCheck`.
   */
  private readonly recent = new Map<number, number>();
  /**
   * The keys and values of `recent` in the order they were set, a ring: the oldest is forgotten
   * by its key. Taking it from `recent.keys()` instead walked past every entry deleted since the
   * map was last compacted, up to tens of thousands per charge once a file had more than
   * RECENT_CHARGES: two thirds of the time of a 120 MB wide CSV.
   */
  private readonly recentKeys = new Float64Array(RECENT_CHARGES);
  private readonly recentValues = new Float64Array(RECENT_CHARGES);
  private recentSet = 0;
  /**
   * The last records kept (RECENT_PARTS, RECENT_PART_RATES), oldest first, each with its item
   * number and its rates' payer and plan numbers and rows: the rates a record that continues one
   * of them is compared with (`dropRepeatedRates`).
   */
  private readonly recentParts: {
    item: number;
    payers: PayerCharge[];
    plans: number[];
    lines: number[];
  }[] = [];
  private recentPartRates = 0;
  /** For each payer and plan number, the last record (`partsRead`) that had a rate of it. */
  private planSeen = new Int32Array(64);
  private partsRead = 0;
  /** Payer and plan pairs by their names, each with a number (`planId`), and how many. */
  private readonly plans = new Map<string, Map<string, number>>();
  private planCount = 0;
  /** Item numbers given (see ChargeRecord.continues), and the last record's. */
  private items = 0;
  private lastItem = 0;

  // The tall charge being grouped.
  private pending: ChargeRecord | null = null;
  private pendingKey: string[] = [];
  private pendingErrors = 0;
  private pendingDollar = false;
  /** The pending charge's minimum and maximum written but not read (minMaxUnreadable). */
  private pendingUnreadable = 0;
  /**
   * The row of each of the pending charge's rates, and its payer and plan's number (`planId`), at
   * the rate's index. Never emptied, only written over: emptied for each charge, they were made
   * again as its rates came.
   */
  private readonly pendingLines: number[] = [];
  private readonly pendingPlans: number[] = [];

  constructor(private readonly report: ValidationReport) {
    this.names = new NameNormaliser(report);
  }

  push(chunk: Buffer): void {
    this.split(this.decoder.decode(chunk));
    if (this.layout === null && this.splitter.pendingLength + this.undecided.length > 4 << 20) {
      throw new MrfReadError(
        'not-a-mrf',
        'The file has no line break in its first 4 MB: it is not a CSV hospital price file.',
      );
    }
  }

  end(): void {
    this.split(this.decoder.decode(Buffer.alloc(0), true));
    if (this.undecided.length > 0) this.splitter.push(this.undecided);
    this.undecided = '';
    this.splitter.end();
    if (this.layout === null) {
      throw new MrfReadError(
        this.rowIndex === 0 ? 'not-a-mrf' : 'missing-header-rows',
        this.rowIndex === 0
          ? 'The file holds no CSV rows.'
          : 'The CSV ends before its column names row (the third row of a CMS CSV).',
      );
    }
    this.flush();
    this.decoder.reportRest(this.report);
  }

  /**
   * Text to the row splitter. A file whose lines end with CR alone (Excel for Mac's "CSV
   * (Macintosh)") is read as if they ended with LF, and so is one whose lines end with LF CR, CRLF
   * the wrong way round (written by hand-made exports); which kind a file uses is told by its
   * first line end, and text is held until one is seen.
   */
  private split(text: string): void {
    if (this.lineEnds === 'unknown') {
      const all = this.undecided + text;
      const lf = all.indexOf('\n');
      const cr = all.indexOf('\r');
      if (cr === -1 || (lf !== -1 && lf < cr) || cr === all.length - 1) {
        // No line end yet, or one whose next characters (CR? LF?) are still to come.
        if (lf === -1 || (cr === lf + 1 && all.length < lf + 3)) {
          this.undecided = all;
          return;
        }
        this.lineEnds = cr === lf + 1 && all.charCodeAt(lf + 2) !== 10 ? 'lf-cr' : 'lf';
        if (this.lineEnds === 'lf-cr') this.report.add('csv.lf-cr-line-ends', 'file');
      } else {
        this.lineEnds = all.charCodeAt(cr + 1) === 10 ? 'lf' : 'cr';
        if (this.lineEnds === 'cr') this.report.add('csv.cr-line-ends', 'file');
      }
      this.undecided = '';
      text = all;
    }
    if (this.lineEnds === 'lf-cr' && text.length > 0) {
      if (this.lfPending && text.charCodeAt(0) === 13) {
        text = text.slice(1);
        this.lfPending = false;
      }
      if (text.length > 0) this.lfPending = text.charCodeAt(text.length - 1) === 10;
      text = text.replaceAll('\n\r', '\n');
    }
    this.splitter.push(this.lineEnds === 'cr' ? text.replaceAll('\r', '\n') : text);
  }

  private onRow(fields: string[], rowLine: number, end: number, loneCrText?: string): void {
    const line = rowLine + this.loneCrLines;
    // Bytes read as Windows-1252 in this row: reported with its line.
    if (this.decoder.nextExampleChar < end) {
      this.decoder.reportExamples(this.report, `row ${line}`, end);
    }
    // Before the first row and before the column names, a row of empty values is a stray line
    // (before the values row it is not: a hospital may leave every value empty).
    if ((this.rowIndex === 0 || this.rowIndex === 2) && isBlank(fields)) {
      this.report.add('csv.blank-header-row', `row ${line}`);
      return;
    }
    if (this.rowIndex === 0 && isSepLine(fields)) {
      this.report.add('csv.sep-line', `row ${line}`);
      return;
    }
    // A title or a note above the header rows ("Standard Charges – Effective 1/1/2026").
    if (this.rowIndex === 0 && this.titleLines < MAX_TITLE_LINES && isTitleLine(fields)) {
      this.titleLines++;
      const title = fields.filter((f) => f.trim()).join(' ');
      this.report.add('csv.title-line', `row ${line}`, JSON.stringify(title.slice(0, 80)));
      return;
    }
    if (this.rowIndex === 0) this.semicolonEnds = endsWithSemicolon(fields, line, this.report);
    if (this.semicolonEnds) dropSemicolon(fields);
    // A row of empty values after the first is the values row left empty, or a stray line: the
    // row after it tells which (the column names, or the values).
    if (this.rowIndex === 1 && this.heldBlank === null && isBlank(fields)) {
      this.heldBlank = { fields, line };
      return;
    }
    if (this.heldBlank !== null) {
      const held = this.heldBlank;
      this.heldBlank = null;
      if (hasDescription(fields)) {
        this.rowIndex++;
        this.onHeaderValues(held.fields, held.line);
      } else this.report.add('csv.blank-header-row', `row ${held.line}`);
    }
    const index = this.rowIndex++;
    if (index === 0) this.onHeaderNames(fields);
    else if (index === 1) this.onHeaderValues(fields, line);
    else if (index === 2) this.onColumns(fields, line);
    else this.onData(fields, line, loneCrText);
  }

  /**
   * A column name's parts in lower case, payer and plan parts included (the caller takes those
   * from `columnParts`). Read all the same, each with a warning: a CMS keyword written with spaces,
   * "Hospital Name" or "Standard Charge | Gross" (read as the keyword); one in another letter case,
   * "Description" or "Code|1|Type"; spaces around the name or its pipes, "code | 1". Payer and
   * plan parts are left as they are: a plan may be called "Plan Name".
   */
  private keywords(raw: string, location: string): string[] {
    let spaced = false;
    let cased = false;
    const parts = columnParts(raw);
    // Keywords come first and last (standard_charge|<payer>|<plan>|negotiated_dollar); a payer or
    // plan name in between may well be "Payer Name".
    const named = (i: number) => i === 0 || i === 3 || (i === 1 && parts.length === 2);
    const payerOrPlan = (i: number) =>
      (i === 1 || i === 2) && parts.length >= 3 && parts[0]?.toLowerCase() !== 'code';
    const lower = parts.map((part, i) => {
      const l = part.toLowerCase();
      if (named(i) && l.includes(' ')) {
        const keyword = l.replace(/\s+/g, '_');
        if (!KEYWORDS.has(keyword)) return l;
        spaced = true;
        return keyword;
      }
      if (l !== part && !payerOrPlan(i) && KEYWORDS.has(l)) cased = true;
      return l;
    });
    if (spaced) this.report.add('column.spaces', location, raw);
    else if (cased) this.report.add('column.case', location, raw);
    if (hasStraySpaces(raw, parts))
      this.report.add('column.stray-spaces', location, JSON.stringify(raw));
    return lower;
  }

  private onHeaderNames(fields: string[]): void {
    const names = fields.map((f, i) => this.keywords(f, `row 1, column ${i + 1}`).join('|'));
    if (names.includes('hospital_name')) {
      refuseRepeatedHeaderNames(names, fields);
      this.headerNames = names;
      this.headerNamesWritten = fields;
      this.namesRow = { first: fields[0] ?? '', whole: fields.join(',') };
      return;
    }
    const joined = fields.join(',').toLowerCase();
    if (joined.includes('hospital_name')) {
      // Pipes separate a column name's parts (license_number|MA), but not two header names.
      const delimiter = joined.includes(';')
        ? 'semicolons'
        : joined.includes('\t')
          ? 'tabs'
          : /(hospital_name|last_updated_on) *\| *(last_updated_on|version)\b/.test(joined)
            ? 'pipes (|)'
            : null;
      if (delimiter) {
        throw new MrfReadError(
          'wrong-delimiter',
          `The CSV separates its values with ${delimiter}; CMS CSV files use commas.`,
        );
      }
    }
    if (
      names.includes('description') &&
      names.some((n) => n.startsWith('code|') || n === 'setting')
    ) {
      throw new MrfReadError(
        'missing-header-rows',
        'The CSV starts with the charge column names: the two header rows (hospital_name, ' +
          'last_updated_on, version, … and their values) that CMS requires are missing.',
      );
    }
    throw new MrfReadError(
      'not-a-mrf',
      this.titleLines > 0
        ? `No row up to row ${this.titleLines + 1} has a hospital_name column: this is not a CMS hospital price file.`
        : 'The first row has no hospital_name column: this is not a CMS hospital price file.',
    );
  }

  private onHeaderValues(written: string[], line: number): void {
    const r = this.report;
    const names = this.headerNames;
    const values = alignHeaderValues(names, written, r, line);
    const value = (name: string): string => {
      const i = names.indexOf(name);
      return i === -1 ? '' : (values[i] ?? '');
    };
    const isV3 = names.includes('location_name') || names.includes('type_2_npi');
    const version = resolveVersion(
      value('version'),
      isV3 ? '3.0.0' : names.includes('hospital_location') ? '2.2.1' : null,
      r,
    );
    const h = emptyHeader('csv-tall', version.version, version.declared);
    this.ctx = { version: version.version, report: r };
    this.codeTypes = version.version === '3.0.0' ? CODE_TYPES_V3_SET : CODE_TYPES_V2_SET;
    const trimmed = (name: string) => text(value(name), r, 'row 2', name);
    const list = (name: string) => splitPipes(value(name), r, 'row 2', name);
    h.hospitalName = trimmed('hospital_name') ?? '';
    h.lastUpdatedOn = isoDate(value('last_updated_on'), r, 'row 2, last_updated_on');
    h.locationNames = list(value('location_name') ? 'location_name' : 'hospital_location');
    // 3.0.0 renamed it location_name (CMS's validator: the column is missing): read, and said.
    if (
      version.version === '3.0.0' &&
      !names.includes('location_name') &&
      names.includes('hospital_location')
    ) {
      r.add('v3.location-name', 'row 1, hospital_location');
    }
    h.addresses = list('hospital_address');
    h.type2Npis = readNpis(list('type_2_npi'), r, 'row 2, type_2_npi');
    h.attesterName = trimmed('attester_name');
    h.generalContractProvisions = trimmed('general_contract_provisions');
    for (let i = 0; i < names.length; i++) {
      const name = names[i] ?? '';
      if (name.startsWith('license_number')) {
        const state = name.split('|')[1]?.toUpperCase() ?? '';
        // The templates' placeholder "[state]" is no state.
        h.licenseState = /^[A-Z]{2}$/.test(state) ? state : null;
        h.licenseNumber = text(values[i] ?? '', r, 'row 2', name);
      } else if (name.startsWith(ATTESTATION_START)) {
        h.attestationConfirmed = confirmation(values[i] ?? '', r, 'row 2, attestation');
        const statement = this.headerNamesWritten[i] ?? '';
        checkStatement(statement.trim(), version.version, r, `row 1, column ${i + 1}`);
      }
    }
    this.header = h;
    checkHeader(h, r);
  }

  private onColumns(fields: string[], line: number): void {
    const header = this.header as MrfHeader;
    const seen = new Map<string, number>();
    const layout: Layout = {
      tall: false,
      width: fields.length,
      description: -1,
      codes: [],
      modifiers: -1,
      setting: -1,
      drugUnit: -1,
      drugType: -1,
      gross: -1,
      cash: -1,
      min: -1,
      max: -1,
      genericNotes: -1,
      rateNotes: -1,
      payers: [],
      itemColumns: [],
      amountColumns: [],
      wordColumns: [],
      names: fields.map((name) => name.trim()),
      sharedMethodology: -1,
      sharedNotes: -1,
    };
    const tallPayer = emptyPayerColumns('', '');
    const wide = new Map<string, PayerColumns>();
    const codes = new Map<string, { n: number; code: number; type: number }>();
    const code = (n: string) => {
      let c = codes.get(n);
      if (!c) {
        c = { n: Number(n), code: -1, type: -1 };
        codes.set(n, c);
      }
      return c;
    };
    // A payer's columns in another letter case or spacing are its columns still.
    const payerSlot = (payer: string, plan: string, column: number) => {
      const key = `${payer}|${plan}`.toLowerCase().replace(/\s+/g, ' ');
      let slot = wide.get(key);
      if (!slot) {
        slot = emptyPayerColumns(payer, plan);
        wide.set(key, slot);
      } else if (slot.payerName !== payer || slot.planName !== plan) {
        this.report.add(
          'column.payer-spelling',
          `column ${column + 1}`,
          `"${payer}|${plan}", read as "${slot.payerName}|${slot.planName}"`,
        );
      }
      return slot;
    };
    // Columns whose payer and plan differ only in spacing are one payer's (payerSlot): a field
    // named twice so would have its second column overwrite the first, rates mixed between them.
    const setPayerColumn = (slot: PayerColumns, field: PayerField, column: number) => {
      const earlier = slot[field];
      if (earlier !== -1) {
        throw new MrfReadError(
          'duplicate-columns',
          `The columns "${(fields[earlier] ?? '').trim()}" (column ${earlier + 1}) and ` +
            `"${(fields[column] ?? '').trim()}" (column ${column + 1}) name one payer's ` +
            'column, their payer or plan written in another spacing; the reader cannot tell ' +
            'which one holds the values.',
        );
      }
      slot[field] = column;
    };
    // Issue 3 asks that a wide file with a malformed payer column be refused, loading nothing.
    const malformed = (raw: string) =>
      new MrfReadError(
        'malformed-payer-column',
        `The column "${raw}" is not a valid payer column: a wide CSV names them ` +
          'standard_charge|<payer>|<plan>|negotiated_dollar (or negotiated_percentage, ' +
          'negotiated_algorithm, methodology) and <field>|<payer>|<plan>.',
      );

    const keywords = fields.map((raw, i) => this.keywords(raw, `column ${i + 1}`));
    const written = new Set(keywords.map((k) => k.join('|')));
    const placeholders = templatePlaceholderColumns(keywords, fields, this.report);
    const namesWidePayer = keywords.some(
      (k) => k.length === 4 || (k.length === 3 && PAYER_PREFIXES.has(k[0] ?? '')),
    );
    for (let i = 0; i < fields.length; i++) {
      if (placeholders.has(i)) continue;
      const raw = fields[i] ?? '';
      const parts = columnParts(raw);
      let lower = keywords[i] ?? [];
      // A tall column named as the JSON template names its field, unless the CSV name is there too.
      const csvName = lower.length === 1 ? JSON_FIELD_COLUMNS.get(lower[0] ?? '') : undefined;
      if (csvName !== undefined && !written.has(csvName)) {
        this.report.add('column.json-name', `column ${i + 1}`, `${raw.trim()} → ${csvName}`);
        lower = csvName.split('|');
      }
      // A field of a standard_charge column named another way, unless CMS's name is there too.
      const field = lower[0] === 'standard_charge' ? lower.at(-1) : undefined;
      const cmsField = STANDARD_CHARGE_OTHER_NAMES.get(field ?? '');
      if (cmsField !== undefined && (lower.length === 2 || lower.length === 4)) {
        const cmsName = [...lower.slice(0, -1), cmsField].join('|');
        if (!written.has(cmsName)) {
          const shown = [...parts.slice(0, -1), cmsField].join('|');
          this.report.add('column.other-name', `column ${i + 1}`, `${raw.trim()} → ${shown}`);
          lower = [...lower.slice(0, -1), cmsField];
        }
      }
      const otherName = lower.length === 1 ? TALL_OTHER_NAMES.get(lower[0] ?? '') : undefined;
      if (
        otherName !== undefined &&
        !written.has(otherName) &&
        (otherName === 'modifiers' || !namesWidePayer)
      ) {
        this.report.add('column.other-name', `column ${i + 1}`, `${raw.trim()} → ${otherName}`);
        lower = [otherName];
      }
      const name = lower.join('|');
      if (name.length === 0) {
        this.report.add('column.unnamed', `column ${i + 1}`);
        continue;
      }
      const duplicate = seen.get(name);
      if (duplicate !== undefined) {
        throw new MrfReadError(
          'duplicate-columns',
          `The column "${raw.trim()}" appears twice (columns ${duplicate + 1} and ${i + 1}); ` +
            'the reader cannot tell which one holds the values.',
        );
      }
      seen.set(name, i);
      const head = lower[0] ?? '';
      if (head === 'code' && lower.length >= 2 && /^\d+$/.test(lower[1] ?? '')) {
        if (lower.length === 2) code(lower[1] ?? '').code = i;
        else if (lower.length === 3 && lower[2] === 'type') code(lower[1] ?? '').type = i;
        else this.report.add('column.unknown', `column ${i + 1}`, raw);
        continue;
      }
      if (head === 'standard_charge') {
        if (lower.length === 2 && GENERIC_STANDARD_CHARGE.has(lower[1] ?? '')) {
          const field = lower[1];
          if (field === 'gross') layout.gross = i;
          else if (field === 'discounted_cash') layout.cash = i;
          else if (field === 'min') layout.min = i;
          else if (field === 'max') layout.max = i;
          else tallPayer[PAYER_SUFFIXES.get(field ?? '') as PayerField] = i;
          continue;
        }
        // Two parts name no payer: a field of CMS's that is not, read past.
        if (lower.length === 2) {
          this.report.add('column.unknown', `column ${i + 1}`, raw);
          continue;
        }
        const suffix = PAYER_SUFFIXES.get(lower[3] ?? '');
        if (lower.length !== 4 || suffix === undefined || !parts[1] || !parts[2])
          throw malformed(raw);
        setPayerColumn(payerSlot(parts[1], parts[2], i), suffix, i);
        continue;
      }
      const prefixField = PAYER_PREFIXES.get(head);
      if (prefixField !== undefined) {
        if (lower.length === 1) {
          tallPayer[prefixField] = i;
          continue;
        }
        if (lower.length !== 3 || !parts[1] || !parts[2]) throw malformed(raw);
        setPayerColumn(payerSlot(parts[1], parts[2], i), prefixField, i);
        continue;
      }
      switch (name) {
        case 'description':
          layout.description = i;
          break;
        case 'modifiers':
          layout.modifiers = i;
          break;
        case 'setting':
          layout.setting = i;
          break;
        case 'drug_unit_of_measurement':
          layout.drugUnit = i;
          break;
        case 'drug_type_of_measurement':
          layout.drugType = i;
          break;
        case 'additional_generic_notes':
          layout.genericNotes = i;
          break;
        case 'payer_name':
          tallPayer.payer = i;
          break;
        case 'plan_name':
          tallPayer.plan = i;
          break;
        default:
          this.report.add('column.unknown', `column ${i + 1}`, raw);
      }
    }
    if (layout.description === -1) {
      const joined = fields.join(',');
      if (fields.length <= 2 && (joined.includes(';') || joined.includes('\t'))) {
        throw new MrfReadError(
          'wrong-delimiter',
          'The column names row separates its names with semicolons or tabs; CMS CSV files use commas.',
        );
      }
      throw new MrfReadError(
        'missing-columns',
        'The third row (the column names) has no "description" column: the CSV does not follow a CMS template.',
      );
    }
    layout.codes = [...codes.values()].filter((c) => c.code !== -1).sort((a, b) => a.n - b.n);
    layout.tall = tallPayer.payer !== -1 || wide.size === 0;
    if (layout.tall && wide.size > 0) {
      throw new MrfReadError(
        'malformed-payer-column',
        'The CSV has both a payer_name column (tall layout) and payer-specific columns (wide layout).',
      );
    }
    layout.payers = layout.tall ? [tallPayer] : [...wide.values()];
    if (!layout.tall) this.sharePayerlessColumns(layout, tallPayer);
    // Every rate needs its methodology: without the column, each is rejected, and said once here.
    for (const p of layout.payers) {
      if (p.methodology !== -1 || (layout.tall && p.payer === -1)) continue;
      const missing = layout.tall
        ? 'standard_charge|methodology'
        : `standard_charge|${p.payerName}|${p.planName}|methodology`;
      this.report.add('column.no-methodology', `row ${line}`, missing);
    }
    this.reportMissingColumns(layout, [...codes.values()], line);
    if (layout.tall && tallPayer.notes === -1) layout.rateNotes = layout.genericNotes;
    layout.itemColumns = [
      layout.description,
      ...layout.codes.flatMap((c) => [c.code, c.type]),
      layout.modifiers,
      layout.setting,
      layout.drugUnit,
      layout.drugType,
      layout.gross,
      layout.cash,
      layout.min,
      layout.max,
      layout.rateNotes === -1 ? layout.genericNotes : -1,
    ].filter((i) => i !== -1);
    layout.amountColumns = [
      layout.gross,
      layout.cash,
      layout.min,
      layout.max,
      ...layout.payers.flatMap((p) => [
        p.dollar,
        p.percentage,
        p.estimated,
        p.median,
        p.p10,
        p.p90,
      ]),
    ].filter((i) => i !== -1);
    layout.wordColumns = [
      ...new Set([
        layout.setting,
        layout.drugType,
        ...layout.codes.map((c) => c.type),
        ...layout.payers.map((p) => p.methodology),
      ]),
    ].filter((i) => i !== -1);
    header.format = layout.tall ? 'csv-tall' : 'csv-wide';
    this.layout = layout;
    this.splitter.expectRowWidth(layout.width);
    this.columnsRow = { first: fields[0] ?? '', whole: fields.join(',') };
  }

  /**
   * A wide file's columns that name no payer, as a tall file's do (`standard_charge|methodology`,
   * `additional_payer_notes`, `standard_charge|negotiated_dollar`): before, their values were not
   * read, without a word. A methodology or notes column is read as their own by the payers that
   * have no such column (`column.shared`): a file that writes one methodology column for all its
   * payers means it for each, and notes written for every payer are each one's. Any other (a
   * dollar amount, a percentage, an algorithm, an allowed amount, a count, a plan) is not read
   * (`column.no-payer`): whose value it is cannot be told, and a dollar amount read as every
   * payer's would be a price some of them never agreed. So is a methodology or notes column when
   * every payer has its own.
   */
  private sharePayerlessColumns(layout: Layout, payerless: PayerColumns): void {
    for (const field of PAYERLESS_FIELDS) {
      const column = payerless[field];
      if (column === -1) continue;
      const name = layout.names[column] ?? '';
      const takers =
        field === 'methodology' || field === 'notes'
          ? layout.payers.filter((p) => p[field] === -1)
          : [];
      if (takers.length === 0) {
        this.report.add('column.no-payer', `column ${column + 1}`, name);
        continue;
      }
      for (const p of takers) p[field] = column;
      if (field === 'methodology') layout.sharedMethodology = column;
      else layout.sharedNotes = column;
      const of = `${takers.length} of ${layout.payers.length} payers`;
      this.report.add('column.shared', `column ${column + 1}`, `${name}, read for ${of}`);
    }
  }

  /**
   * Each column the file's template requires (CMS's validator: ColumnMissingError) that it does
   * not have, said once: its values are read as empty, so what is there is still read. A missing
   * description refuses the file (onColumns), a missing methodology is `column.no-methodology`.
   */
  private reportMissingColumns(
    layout: Layout,
    codes: readonly { n: number; code: number; type: number }[],
    line: number,
  ): void {
    const version = (this.ctx as RuleContext).version;
    const missing: string[] = [];
    const need = (column: number, name: string) => {
      if (column === -1) missing.push(name);
    };
    const codeCount = Math.max(1, ...codes.map((c) => c.n));
    for (let n = 1; n <= codeCount; n++) {
      const c = codes.find((c) => c.n === n);
      need(c?.code ?? -1, `code|${n}`);
      need(c?.type ?? -1, `code|${n}|type`);
    }
    need(layout.setting, 'setting');
    need(layout.gross, 'standard_charge|gross');
    need(layout.cash, 'standard_charge|discounted_cash');
    need(layout.min, 'standard_charge|min');
    need(layout.max, 'standard_charge|max');
    need(layout.genericNotes, 'additional_generic_notes');
    if (version !== '2.0.0' && version !== '2.1.0') {
      need(layout.modifiers, 'modifiers');
      need(layout.drugUnit, 'drug_unit_of_measurement');
      need(layout.drugType, 'drug_type_of_measurement');
    }
    for (const p of layout.payers) {
      // A wide payer's columns name it; a tall file's are CMS's names alone.
      const of = layout.tall ? '' : `|${p.payerName}|${p.planName}`;
      if (layout.tall) {
        need(p.payer, 'payer_name');
        need(p.plan, 'plan_name');
      }
      need(p.dollar, `standard_charge${of}|negotiated_dollar`);
      need(p.percentage, `standard_charge${of}|negotiated_percentage`);
      need(p.algorithm, `standard_charge${of}|negotiated_algorithm`);
      // Said as column.no-methodology but where a tall file has no payers to describe.
      if (layout.tall && p.payer === -1) need(p.methodology, 'standard_charge|methodology');
      if (!layout.tall) need(p.notes, `additional_payer_notes${of}`);
      if (version === '2.2.0' || version === '2.2.1') need(p.estimated, `estimated_amount${of}`);
      if (version === '3.0.0') {
        need(p.median, `median_amount${of}`);
        need(p.p10, `10th_percentile${of}`);
        need(p.p90, `90th_percentile${of}`);
        need(p.count, `count${of}`);
      }
    }
    for (const name of missing) this.report.add('column.missing', `row ${line}`, name);
    this.reportOtherVersion(layout, version, line);
  }

  /**
   * Columns of a CMS version other than the file's, once each whatever the payers: v3.0's
   * allowed amounts in an older file, the estimated amount (up to 2.2.1) in a v3.0 one.
   */
  private reportOtherVersion(layout: Layout, version: CmsVersion, line: number): void {
    const found = new Set<string>();
    for (const p of layout.payers) {
      const columns: [number, string][] =
        version === '3.0.0'
          ? [[p.estimated, 'estimated_amount']]
          : [
              [p.median, 'median_amount'],
              [p.p10, '10th_percentile'],
              [p.p90, '90th_percentile'],
              [p.count, 'count'],
            ];
      for (const [column, name] of columns) if (column !== -1) found.add(name);
    }
    const theirs = version === '3.0.0' ? 'versions 2.0.0 to 2.2.1' : 'version 3.0.0';
    for (const name of found) {
      const detail = `${name}, of ${theirs}; the file says ${version}`;
      this.report.add('column.other-version', `row ${line}`, detail);
    }
  }

  /**
   * Tools that join exports, or page them, write the header rows again inside the file. The same
   * hospital's are skipped, with a warning. Another hospital's end the read: a file is one
   * hospital's charges, and its rows would be loaded under the wrong hospital.
   */
  private skipRepeatedHeader(f: string[], line: number): boolean {
    if (this.repeat === 'values') {
      this.repeat = 'columns';
      const name = text(f[this.headerNames.indexOf('hospital_name')] ?? '') ?? '';
      const own = this.header?.hospitalName ?? '';
      // A repeat that leaves the name empty names no other hospital.
      if (name !== '' && name.toLowerCase() !== own.toLowerCase()) {
        throw new MrfReadError(
          'mixed-hospitals',
          `Row ${line} names another hospital ("${name}", not "${own}") in header rows written ` +
            "again inside the file: a file holds one hospital's charges. Split it at those " +
            'rows and ingest each part.',
        );
      }
      return true;
    }
    if (this.repeat === 'columns') {
      this.repeat = 'none';
      return isRow(f, this.columnsRow);
    }
    const names = isRow(f, this.namesRow);
    if (!names && !isRow(f, this.columnsRow)) return false;
    this.flush();
    this.report.add('csv.repeated-header', `row ${line}`);
    if (names) this.repeat = 'values';
    return true;
  }

  private onData(row: string[], line: number, loneCrText?: string): void {
    const layout = this.layout as Layout;
    let f = row;
    const first = f[0];
    if (
      (this.repeat !== 'none' ||
        first === this.namesRow.first ||
        first === this.columnsRow.first ||
        first?.charCodeAt(0) === BOM) &&
      this.skipRepeatedHeader(f, line)
    ) {
      return;
    }
    // Lines ended with CR alone in a file whose lines end with LF (parts of two files joined)
    // reach here as one row too wide: read as the rows they are, when each then fits. Each such
    // line is one the row splitter did not count, so the rows after it are numbered on.
    const loneCr =
      loneCrText !== undefined && f.length > layout.width
        ? rowsAtLoneCr(loneCrText, layout.width)
        : null;
    if (loneCr !== null) {
      this.report.add('csv.lone-cr', `row ${line}`);
      this.loneCrLines += loneCr.lines;
      for (const [part, partLine] of loneCr.rows) this.onData(part, line + partLine - 1);
      return;
    }
    // More values than its columns, or than the file's first row if it writes empty values
    // past them: a number's unquoted thousands comma is mended; values past the last column
    // mean the row does not line up with the columns (a value with an unquoted comma), and it
    // is rejected; empty ones are read, said once, as files that write them do on every row.
    // A row as wide as a first row with empty values past its columns can still be shifted:
    // a value, not an empty one, past the last column says so, and so does a word where an
    // amount goes when the row's own last value was empty.
    if (this.usualWidth === -1 && f.some((v) => v.length > 0)) {
      this.usualWidth = allEmpty(f, layout.width) ? f.length : layout.width;
      this.splitter.expectRowWidth(Math.max(layout.width, this.usualWidth));
    }
    const expected = Math.max(layout.width, this.usualWidth);
    const filled = filledWidth(f, layout.width);
    // Only a row wider than the columns can be mended, and only such a row gets the closure:
    // made for every row, it cost a tenth of reading a tall file (tsx names each function made).
    let joined: { fields: string[]; numbers: string[] } | null = null;
    if (f.length > layout.width) {
      const fits = (row: readonly string[]) => !wordInAmount(row, layout.amountColumns);
      joined =
        f.length > expected
          ? joinThousands(f, f.length - expected, fits)
          : filled > layout.width
            ? joinThousands(f, filled - layout.width, fits)
            : !fits(f)
              ? joinThousands(f, f.length - layout.width, fits)
              : null;
    }
    if (joined !== null) {
      this.report.add('csv.unquoted-thousands', `row ${line}`, joined.numbers.join(', '));
      f = joined.fields;
    } else if (filled > layout.width) {
      this.reject('csv.misaligned', line, `${f.length} values for ${layout.width} columns`);
      return;
    } else if (f.length < layout.width && this.misfitShortRow(f, line)) {
      return;
    } else if (f.length !== layout.width && !this.fieldCountWarned && f.some((v) => v.length > 0)) {
      this.fieldCountWarned = true;
      const counts = `${f.length} values for ${layout.width} columns`;
      this.report.add('csv.field-count', `row ${line}`, counts);
    }
    if (layout.tall) {
      const location = `row ${line}`;
      const pending = this.pending;
      const room = pending !== null && pending.payers.length < MAX_RATES_PER_RECORD;
      if (pending !== null && this.sameItem(f)) {
        if (room) {
          this.addTallPayer(f, line, location);
          return;
        }
        // Memory stays flat whatever the file: the charge goes on in a record that continues it.
      }
      if (isBlank(f)) {
        this.flush();
        return;
      }
      const { record, errors, unreadable } = this.readItem(f, location);
      // The charge's values written another way ("OP" for "outpatient", "1.2E+03" for "1200")
      // are still the charge.
      if (
        room &&
        errors === 0 &&
        this.pendingErrors === 0 &&
        sameCharge(pending, record, layout.rateNotes === -1)
      ) {
        this.pendingKey = this.keyOf(f);
      } else {
        this.flush();
        this.startRecord(record, errors, f, unreadable);
      }
      this.addTallPayer(f, line, location);
      return;
    }
    if (isBlank(f)) return;
    const location = `row ${line}`;
    const { record, errors, unreadable } = this.readItem(f, location);
    this.startRecord(record, errors, f, unreadable);
    // A payer's notes shared with others are its entry on a modifier's row (see addPayer).
    const sharedNotes = isModifierOnly(record) ? -1 : layout.sharedNotes;
    let rates = 0;
    for (let k = 0; k < layout.payers.length; k++) {
      const columns = layout.payers[k] as PayerColumns;
      if (slotEmpty(f, columns, layout.sharedMethodology, sharedNotes)) continue;
      // Each payer's rate is said by its payer and plan, as a JSON file's is by its entry.
      if (this.addPayer(f, columns, line, location + columns.place, k + 1)) rates++;
    }
    // Notes shared by every payer on a row where none has a rate are no one's: said, as a
    // payer's own notes there are.
    if (rates === 0 && sharedNotes !== -1 && !noValue(cell(f, sharedNotes))) {
      this.report.add('csv.values-without-rate', location, layout.names[sharedNotes]);
    }
    this.flush();
  }

  /** Rejects the row, said as `rule` with `detail`: a tall row is a rate, a wide one a charge. */
  private reject(rule: 'csv.misaligned' | 'csv.misaligned-short', line: number, detail: string) {
    this.report.add(rule, `row ${line}`, detail);
    if ((this.layout as Layout).tall) this.report.rejectedPayers++;
    else this.report.rejectedRecords++;
  }

  /**
   * Whether a row with fewer values than columns is rejected as misaligned: when a value is of
   * the wrong kind for its column (`misfitColumn`), one was left out before it and every value
   * after it stands in the column before its own. Before, such a row was read shifted, its
   * charge kept with the discounted cash price as its gross charge, said only by errors on its
   * values and one `csv.field-count` for the file. A row whose values are where they go is read:
   * spreadsheets leave out a row's empty values at its end.
   */
  private misfitShortRow(f: string[], line: number): boolean {
    const layout = this.layout as Layout;
    const misfit = misfitColumn(f, layout);
    if (misfit === -1) return false;
    const value = `${layout.names[misfit] ?? ''} ${JSON.stringify(f[misfit])}`;
    this.reject(
      'csv.misaligned-short',
      line,
      `${f.length} values for ${layout.width} columns; ${value}`,
    );
    return true;
  }

  private sameItem(f: string[]): boolean {
    const key = this.pendingKey;
    const columns = (this.layout as Layout).itemColumns;
    for (let k = 0; k < columns.length; k++) {
      if ((f[columns[k] as number] ?? '') !== key[k]) return false;
    }
    return true;
  }

  /**
   * The row's item values, read and checked (its issues reported), without its rates, and how
   * many errors they had.
   */
  private readItem(
    f: string[],
    location: string,
  ): { record: ChargeRecord; errors: number; unreadable: number } {
    const layout = this.layout as Layout;
    const r = this.report;
    const before = r.rejectingErrors;
    const codes: CodeRef[] = [];
    for (const c of layout.codes) {
      const code = text(cell(f, c.code), r, location, `code|${c.n}`);
      const type = text(cell(f, c.type), r, location, `code|${c.n}|type`);
      if (code === null) {
        if (type !== null) r.add('required.code_value', location, `code|${c.n}|type ${type}`);
        continue;
      }
      if (type === null) {
        r.add('required.code_type', location, code);
        continue;
      }
      const kind = codeType(this.codeTypes, r, type, location);
      // A placeholder ("N/A", zeros) is no code: said by codeValue, and left out here, before
      // the charge's setting and rates are judged by whether it has one.
      const value = codeValue(r, kind, code, location);
      if (value.length > 0) codes.push({ code: value, type: kind });
    }
    const description = text(cell(f, layout.description), r, location, 'description') ?? '';
    if (description === '' && this.namedAbove !== null && !this.fillDownSaid) {
      this.sayFillDown(f, location, this.namedAbove);
    }
    this.namedAbove = description !== '' && codes.length > 0 ? description : null;
    const modifiers = modifierCodes(
      splitPipes(cell(f, layout.modifiers), r, location, 'modifiers'),
      r,
      location,
    );
    const settingText = cell(f, layout.setting);
    let settingValue = setting(settingText, r, location);
    if (settingValue == null) {
      // A modifier's row may leave it out since 2.2.0: read for every setting.
      const required = needsSetting((this.ctx as RuleContext).version, { codes, modifiers });
      if (settingValue === undefined) {
        const rule = required ? 'enum.setting' : 'enum.modifier-setting';
        r.add(rule, location, JSON.stringify(settingText));
      } else if (required) r.add('required.setting', location);
      settingValue = null;
    }
    const drugUnitText = cell(f, layout.drugUnit);
    const drugUnit = amount(drugUnitText, r, location, 'drug_unit_of_measurement', DRUG_UNIT);
    const drugTypeText = text(cell(f, layout.drugType), r, location, 'drug_type_of_measurement');
    checkDrugInformation(
      this.ctx as RuleContext,
      location,
      drugUnitText.trim() !== '',
      drugTypeText !== null,
      codes,
    );
    const gross = amount(cell(f, layout.gross), r, location, 'standard_charge|gross', CHARGE);
    const cash = amount(
      cell(f, layout.cash),
      r,
      location,
      'standard_charge|discounted_cash',
      CHARGE,
    );
    const minText = cell(f, layout.min);
    const maxText = cell(f, layout.max);
    const min = amount(minText, r, location, 'standard_charge|min', CHARGE);
    const max = amount(maxText, r, location, 'standard_charge|max', CHARGE);
    const unreadable = minMaxUnreadable(min, minText.trim() !== '', max, maxText.trim() !== '');
    const record: ChargeRecord = {
      location,
      description,
      codes,
      setting: settingValue,
      modifiers,
      drugUnit,
      drugType: drugType(r, drugTypeText, location),
      gross: numberOrNull(gross),
      discountedCash: numberOrNull(cash),
      min: numberOrNull(min),
      max: numberOrNull(max),
      // A row's notes are its rate's when it has one (Layout.rateNotes).
      genericNotes:
        layout.rateNotes !== -1 && !slotEmpty(f, layout.payers[0] as PayerColumns)
          ? null
          : text(cell(f, layout.genericNotes), r, location, 'additional_generic_notes'),
      payers: [],
    };
    return { record, errors: r.rejectingErrors - before, unreadable };
  }

  /**
   * Says, once a file, a row that leaves its description and codes empty after a row that had
   * them (`above`, its description): a spreadsheet's "fill-down" export writes an item's
   * description and codes on its first row only, its other rows (other payers, other settings)
   * leaving them to the row above. Such rows are still rejected for what they lack, each said
   * (required.description, required.code): a value is never filled in from another row. But
   * the report says why a file's rows lack them, where two errors a row did not.
   */
  private sayFillDown(f: string[], location: string, above: string): void {
    for (const c of (this.layout as Layout).codes) if (cell(f, c.code).trim() !== '') return;
    this.fillDownSaid = true;
    this.report.add('csv.fill-down', location, `after ${JSON.stringify(above.slice(0, 80))}`);
  }

  /**
   * Makes the record the charge that rates are added to; `errors` its item's errors, `unreadable`
   * its minimum and maximum written but not read.
   */
  private startRecord(record: ChargeRecord, errors: number, f: string[], unreadable: number): void {
    this.pending = record;
    this.pendingErrors = errors;
    this.pendingUnreadable = unreadable;
    this.pendingDollar = false;
    if ((this.layout as Layout).tall) this.pendingKey = this.keyOf(f);
  }

  /** A tall row's item columns as written: rows of one charge repeat them. */
  private keyOf(f: string[]): string[] {
    const key: string[] = [];
    for (const i of (this.layout as Layout).itemColumns) key.push(f[i] ?? '');
    return key;
  }

  private addTallPayer(f: string[], line: number, location: string): void {
    const columns = (this.layout as Layout).payers[0] as PayerColumns;
    if (slotEmpty(f, columns)) return;
    this.addPayer(f, columns, line, location, 0);
  }

  /**
   * Reads a payer's rate from its columns on row `line` into the pending charge, checked, its
   * issues said at `location`; `plan` is a wide payer's number (its place among the payers, from
   * 1), 0 for a tall row's (numbered by its names, `planId`). Whether the columns held a rate,
   * kept or rejected: a wide payer's may hold none.
   */
  private addPayer(
    f: string[],
    c: PayerColumns,
    line: number,
    location: string,
    plan: number,
  ): boolean {
    const r = this.report;
    const layout = this.layout as Layout;
    const record = this.pending as ChargeRecord;
    const modifierOnly = isModifierOnly(record);
    const before = r.rejectingErrors;
    // A wide file has every payer's columns on every row: where a payer has no rate (no amount,
    // percentage or algorithm; "N/A" is none), what its other columns hold (a methodology,
    // notes, allowed amounts, "N/A" filled in by a spreadsheet) is no rate to reject, nor a
    // methodology to judge: before, a methodology or an "N/A" there made a rate rejected with
    // two or three errors. The other values are checked below; the columns are said, and left.
    // A tall row that names a payer but holds no rate is read the same way, its charge kept:
    // before, it was a rate rejected with as many errors, where the wide payer was not.
    // But a modifier's row may be priced by its notes alone (CMS, from 2.2.0: "150% payment
    // adjustment…"): they are the payer's entry, on a tall row too (its notes may be the generic
    // ones, Layout.rateNotes).
    const rateless =
      noValue(cell(f, c.dollar)) &&
      noValue(cell(f, c.percentage)) &&
      noValue(cell(f, c.algorithm)) &&
      (!modifierOnly || noValue(cell(f, c.notes === -1 ? layout.rateNotes : c.notes)));
    const methodologyText = cell(f, c.methodology);
    let methodologyValue = rateless ? null : methodology(methodologyText, r, location);
    if (methodologyValue === undefined) {
      r.add('enum.methodology', location, JSON.stringify(methodologyText));
      methodologyValue = null;
    }
    const dollar = amount(cell(f, c.dollar), r, location, 'negotiated_dollar');
    const percentage = amount(cell(f, c.percentage), r, location, 'negotiated_percentage', PERCENT);
    const payer: PayerCharge = {
      // Wide files name the payer and plan in the column header; keep them as written, trimmed.
      payerName:
        c.payer === -1
          ? c.payerName
          : (this.names.name(cell(f, c.payer), location, 'payer_name') ?? ''),
      planName:
        c.plan === -1
          ? c.planName
          : (this.names.name(cell(f, c.plan), location, 'plan_name') ?? ''),
      methodology: methodologyValue,
      dollar: numberOrNull(dollar),
      percentage: numberOrNull(percentage),
      algorithm: text(cell(f, c.algorithm), r, location, 'negotiated_algorithm'),
      estimatedAmount: allowed(f, c.estimated, r, location, 'estimated_amount'),
      median: allowed(f, c.median, r, location, 'median_amount'),
      p10: allowed(f, c.p10, r, location, '10th_percentile'),
      p90: allowed(f, c.p90, r, location, '90th_percentile'),
      count: text(cell(f, c.count), r, location, 'count'),
      notes:
        c.notes === -1 && layout.rateNotes !== -1
          ? text(cell(f, layout.rateNotes), r, location, 'additional_generic_notes')
          : text(cell(f, c.notes), r, location, 'additional_payer_notes'),
    };
    if (rateless) {
      r.add('csv.values-without-rate', location);
      return false;
    }
    const valueErrors = r.rejectingErrors - before;
    // An unreadable amount was reported already; count it as present for the rules below.
    if (Number.isNaN(dollar)) payer.dollar = -1;
    if (Number.isNaN(percentage)) payer.percentage = -1;
    const ruleErrors = checkPayer(
      payer,
      this.ctx as RuleContext,
      location,
      text(methodologyText) !== null,
      layout.tall ? record.genericNotes : null,
      modifierOnly,
    );
    if (valueErrors + ruleErrors > 0) {
      if (modifierOnly) r.rejectedModifierEntries++;
      else r.rejectedPayers++;
      return true;
    }
    if (payer.dollar !== null) this.pendingDollar = true;
    const k = record.payers.push(payer) - 1;
    this.pendingLines[k] = line;
    this.pendingPlans[k] = plan === 0 ? this.planId(payer) : plan;
    return true;
  }

  private flush(): void {
    const record = this.pending;
    if (record === null) return;
    this.pending = null;
    const errors =
      this.pendingErrors +
      checkRecord(record, this.ctx as RuleContext, this.pendingDollar, this.pendingUnreadable);
    if (errors === 0) this.dropRepeatedRates(record, this.number(record));
    keepOrReject(record, errors, this.report, this.out);
  }

  /**
   * The number of a tall rate's payer and plan (a wide rate's is its payer's place). A file that
   * names ever more pairs does not grow the table past MAX_PLANS: it is emptied and numbered
   * again, which only makes the rates of two pairs of one number compared (`dropRepeatedRates`).
   */
  private planId(p: PayerCharge): number {
    if (this.planCount >= MAX_PLANS) {
      this.plans.clear();
      this.planCount = 0;
    }
    let byPlan = this.plans.get(p.payerName);
    if (byPlan === undefined) {
      byPlan = new Map();
      this.plans.set(p.payerName, byPlan);
    }
    let id = byPlan.get(p.planName);
    if (id === undefined) {
      id = ++this.planCount;
      byPlan.set(p.planName, id);
    }
    return id;
  }

  /**
   * Leaves out each of the record's rates that repeats a rate of its charge read before (the
   * same payer, plan, methodology, amounts, allowed amounts, count and notes), said as
   * `csv.duplicate-rate` with the row first read. A rate written twice adds nothing: kept, it was
   * loaded and counted twice, without a word (a row written again, where two exports overlap). A
   * wide file repeats one payer's rate on each row of a charge another payer writes on several
   * rows (CMS's v2.0.0 wide example, its hip replacement's three algorithms): read once, as in
   * the example's JSON and tall twins.
   *
   * A rate is compared with those of its own record, and of the last records before it
   * (RECENT_PARTS, RECENT_PART_RATES) when it continues one (a wide charge's next row, a tall
   * charge's next part): not with a part
   * of its charge further back (a file sorted by payer, a file joined to itself, said as
   * `csv.charge-apart`). Only a record that names a payer and plan twice, or continues a recent
   * one, is compared at all, value for value: hashing every rate, to find twins anywhere in the
   * file, took about a tenth of the time of reading a wide CSV (profiled on a generated file).
   */
  private dropRepeatedRates(record: ChargeRecord, item: number): void {
    const payers = record.payers;
    const lines = this.pendingLines;
    const plans = this.pendingPlans;
    const part = ++this.partsRead;
    // The rates read, with their rows: made only when there is a rate to compare.
    let seen = record.continues === undefined ? null : this.recentRates(item);
    let kept = 0;
    for (let k = 0; k < payers.length; k++) {
      const payer = payers[k] as PayerCharge;
      const line = lines[k] as number;
      if (seen === null && this.seenInPart(plans[k] as number, part)) {
        seen = new Map();
        for (let j = 0; j < kept; j++) {
          addRate(seen, payers[j] as PayerCharge, plans[j] as number, lines[j] as number);
        }
      }
      if (seen !== null) {
        const first = addRate(seen, payer, plans[k] as number, line);
        if (first !== 0) {
          const at = (this.layout as Layout).tall
            ? `row ${line}`
            : `row ${line}, ${payer.payerName} | ${payer.planName}`;
          this.report.add('csv.duplicate-rate', at, `as row ${first}`);
          continue;
        }
      }
      payers[kept] = payer;
      plans[kept] = plans[k] as number;
      lines[kept++] = line;
    }
    payers.length = kept;
    const parts = this.recentParts;
    parts.push({ item, payers, plans: plans.slice(0, kept), lines: lines.slice(0, kept) });
    this.recentPartRates += kept;
    while (
      parts.length > RECENT_PARTS ||
      (parts.length > 1 && this.recentPartRates > RECENT_PART_RATES)
    ) {
      this.recentPartRates -= (parts.shift() as (typeof parts)[number]).payers.length;
    }
  }

  /** Whether record `part` had a rate of payer and plan `plan` before; it has one now. */
  private seenInPart(plan: number, part: number): boolean {
    if (plan >= this.planSeen.length) {
      const larger = new Int32Array(Math.max(plan + 1, this.planSeen.length * 2));
      larger.set(this.planSeen);
      this.planSeen = larger;
    }
    if (this.planSeen[plan] === part) return true;
    this.planSeen[plan] = part;
    return false;
  }

  /** The rates of item `item` in the recent records (`recentParts`), with their rows. */
  private recentRates(item: number): RatesRead | null {
    let rates: RatesRead | null = null;
    for (const part of this.recentParts) {
      if (part.item !== item) continue;
      rates ??= new Map();
      for (let k = 0; k < part.payers.length; k++) {
        const rate = part.payers[k] as PayerCharge;
        addRate(rates, rate, part.plans[k] as number, part.lines[k] as number);
      }
    }
    return rates;
  }

  /**
   * Gives a kept record its item number, or finds the charge it continues: the next rows of a
   * charge too long for one record, or a charge's rows in another place (a file sorted by payer),
   * which is said. The rows are one charge whatever their order.
   */
  private number(record: ChargeRecord): number {
    const key = chargeKey(record, (this.layout as Layout).rateNotes === -1);
    const check = keyCheck();
    const found = this.recent.get(key);
    // The key's 12 other bits, kept beside the item number, must agree too.
    const earlier =
      found !== undefined && found % KEY_CHECKS === check
        ? Math.floor(found / KEY_CHECKS)
        : undefined;
    if (earlier !== undefined) {
      record.continues = earlier;
      if (earlier !== this.lastItem) {
        this.report.add('csv.charge-apart', record.location, JSON.stringify(record.description));
      }
      this.lastItem = earlier;
      return earlier;
    }
    this.lastItem = ++this.items;
    const value = this.items * KEY_CHECKS + check;
    const slot = this.recentSet++ % RECENT_CHARGES;
    if (this.recentSet > RECENT_CHARGES) {
      // Unless a later charge with the same key but another check has taken its place.
      const oldest = this.recentKeys[slot] as number;
      if (this.recent.get(oldest) === this.recentValues[slot]) this.recent.delete(oldest);
    }
    this.recentKeys[slot] = key;
    this.recentValues[slot] = value;
    this.recent.set(key, value);
    return this.items;
  }
}

/*
 * A tall charge's item values as one number (what sameCharge compares): records with the same are
 * one charge. Two 32-bit multiplicative hashes of the values: 52 bits are the key, the other 12
 * (`keyCheck`) are kept beside the item number, so two of 100,000 charges agree on all 64 by
 * chance about once in 3,700,000,000 such files (once in 900,000 on the key alone). Strings as
 * keys held the values of every charge remembered, and cost a third more CPU to read a file of
 * Martha's Vineyard's rows (GC); this costs about 8%.
 */
let hashA = 0;
let hashB = 0;
const float = new Float64Array(1);
const floatWords = new Uint32Array(float.buffer);

function mix(x: number): void {
  hashA = Math.imul(hashA ^ x, 0x01000193);
  hashB = Math.imul(hashB ^ x, 0x5bd1e995);
  hashB ^= hashB >>> 15;
}

/** Character codes are at most 0xffff: the markers above them cannot be text. */
function mixText(s: string | null): void {
  if (s === null) return mix(0x10001);
  for (let i = 0; i < s.length; i++) mix(s.charCodeAt(i));
  mix(0x10000);
}

function mixNumber(n: number | null): void {
  if (n === null) return mix(0x10002);
  float[0] = n;
  mix(floatWords[0] as number);
  mix(floatWords[1] as number);
}

/** How many values `keyCheck` takes. */
const KEY_CHECKS = 0x1000;

/** The last key's 12 bits left out of it. */
function keyCheck(): number {
  return hashB >>> 20;
}

/**
 * A charge's item values as a key; with `notes`, its generic notes too, where they are the
 * charge's (not a tall file's rate's, Layout.rateNotes).
 */
function chargeKey(r: ChargeRecord, notes: boolean): number {
  hashA = 0x811c9dc5;
  hashB = 0x9747b28c;
  mixText(r.description);
  mixText(r.setting);
  mixNumber(r.drugUnit);
  mixText(r.drugType);
  mixNumber(r.gross);
  mixNumber(r.discountedCash);
  mixNumber(r.min);
  mixNumber(r.max);
  for (const m of r.modifiers) mixText(m);
  mix(0x10003);
  for (const c of r.codes) {
    mixText(c.type);
    mixText(c.code);
  }
  if (notes) mixText(r.genericNotes);
  return (hashA >>> 0) * 0x100000 + ((hashB >>> 0) & 0xfffff);
}

/** Rates read, by their key (`rateKey`), each with the row it was read from. */
type RatesRead = Map<number, { rate: PayerCharge; line: number }[]>;

/**
 * The row of a rate read before with the same values as `p`, or 0, when `p` (of payer and plan
 * number `plan`) is added as read from row `line`. The key only narrows the rates compared: two
 * rates are one when every value is.
 */
function addRate(rates: RatesRead, p: PayerCharge, plan: number, line: number): number {
  const key = rateKey(p, plan);
  const alike = rates.get(key);
  if (alike === undefined) {
    rates.set(key, [{ rate: p, line }]);
    return 0;
  }
  const twin = alike.find(({ rate }) => sameRate(rate, p));
  if (twin !== undefined) return twin.line;
  alike.push({ rate: p, line });
  return 0;
}

/** A rate's values as one number (see chargeKey), its payer and plan by their number. */
function rateKey(p: PayerCharge, plan: number): number {
  hashA = 0x811c9dc5;
  hashB = 0x9747b28c;
  mix(plan);
  mixText(p.methodology);
  mixNumber(p.dollar);
  mixNumber(p.percentage);
  mixText(p.algorithm);
  mixNumber(p.estimatedAmount);
  mixNumber(p.median);
  mixNumber(p.p10);
  mixNumber(p.p90);
  mixText(p.count);
  mixText(p.notes);
  return (hashA >>> 0) * 0x100000 + ((hashB >>> 0) & 0xfffff);
}

/** Whether two rates are one rate written twice: the same payer, plan and values. */
function sameRate(a: PayerCharge, b: PayerCharge): boolean {
  return (
    a.payerName === b.payerName &&
    a.planName === b.planName &&
    a.methodology === b.methodology &&
    a.dollar === b.dollar &&
    a.percentage === b.percentage &&
    a.algorithm === b.algorithm &&
    a.estimatedAmount === b.estimatedAmount &&
    a.median === b.median &&
    a.p10 === b.p10 &&
    a.p90 === b.p90 &&
    a.count === b.count &&
    a.notes === b.notes
  );
}

/**
 * Whether two tall records are one charge: the same item values, however each was written. The
 * generic notes with `notes` only: a tall file writes a rate's there (Layout.rateNotes) unless it
 * has additional_payer_notes, and then they are the charge's: "Facility fee" and "Professional
 * fee" rows of one code are two charges, whose rates were filed under the first one's notes.
 */
function sameCharge(a: ChargeRecord, b: ChargeRecord, notes: boolean): boolean {
  return (
    (!notes || a.genericNotes === b.genericNotes) &&
    a.description === b.description &&
    a.setting === b.setting &&
    a.drugUnit === b.drugUnit &&
    a.drugType === b.drugType &&
    a.gross === b.gross &&
    a.discountedCash === b.discountedCash &&
    a.min === b.min &&
    a.max === b.max &&
    a.modifiers.length === b.modifiers.length &&
    a.modifiers.every((m, i) => m === b.modifiers[i]) &&
    a.codes.length === b.codes.length &&
    a.codes.every((c, i) => c.code === b.codes[i]?.code && c.type === b.codes[i]?.type)
  );
}

/**
 * A row with more values than columns, mended when each extra value is the rest of a number
 * whose thousands comma was not quoted (`…,1,125.00,…` for "1,125.00"): the joined row and the
 * numbers joined, if it `fits`. When more values look like such a rest than there are extra
 * values, the one choice of them whose row fits is taken. Null when the extra values cannot be
 * told so: a min of 150 and a max of 400 look like "150,400" when a comma in the notes split them.
 */
function joinThousands(
  f: readonly string[],
  extra: number,
  fits: (fields: readonly string[]) => boolean,
): { fields: string[]; numbers: string[] } | null {
  const splits: number[] = [];
  for (let i = 0; i + 1 < f.length; i++) {
    if (/^\$?\d{1,3}$/.test(f[i] as string) && /^\d{3}(\.\d+)?$/.test(f[i + 1] as string)) {
      splits.push(i);
    }
  }
  if (extra < 1 || splits.length < extra) return null;
  if (splits.length === extra) return lineUp(joinAt(f, splits), fits);
  if (splits.length > MAX_SPLIT_CHOICES) return null;
  let found: { fields: string[]; numbers: string[] } | null = null;
  for (const chosen of choices(splits, extra)) {
    const joined = joinAt(f, chosen);
    if (!fits(joined.fields)) continue;
    if (found !== null) return null;
    found = joined;
  }
  return found;
}

/** Candidate splits beyond which a row is not searched for the one that fits. */
const MAX_SPLIT_CHOICES = 8;

/** Every choice of k of the values, in order. */
function* choices(values: readonly number[], k: number, from = 0): Generator<number[]> {
  if (k === 0) {
    yield [];
    return;
  }
  for (let i = from; i <= values.length - k; i++) {
    for (const rest of choices(values, k - 1, i + 1)) yield [values[i] as number, ...rest];
  }
}

/** The row with each split value joined to the next by a comma, and the numbers so joined. */
function joinAt(
  f: readonly string[],
  splits: readonly number[],
): { fields: string[]; numbers: string[] } {
  const fields = [...f];
  // From the right, so that "1,125,000" (two splits in a row) is joined whole.
  for (const i of [...splits].reverse()) {
    fields.splice(i, 2, `${fields[i]},${fields[i + 1]}`);
  }
  const numbers = fields.filter((v, i) => v !== f[i] && v.includes(','));
  return { fields, numbers };
}

/** Whether a word, not a placeholder such as "N/A", stands in a column that holds an amount. */
function wordInAmount(f: readonly string[], columns: readonly number[]): boolean {
  return columns.some((i) => isWord(f[i] ?? ''));
}

/**
 * Whether a value is a word where an amount goes: letters, but not a placeholder such as "N/A"
 * nor a number written with an exponent ("1.2E+03", as spreadsheets write large numbers).
 */
function isWord(v: string): boolean {
  return /[a-z]/i.test(v) && !isPlaceholder(v) && !Number.isFinite(Number(v.trim()));
}

/** Whether a value is a number ("1200", "$1,080.00", "50%"): no setting, code type or method. */
function isNumber(v: string): boolean {
  const bare = v.replace(/[$,%()\s]/g, '');
  return bare.length > 0 && Number.isFinite(Number(bare));
}

/**
 * The first column of a row short of values whose value is of the wrong kind for it: a word
 * where an amount goes, a number where a setting, a code type, a drug unit type or a
 * methodology goes. -1 when every value is of its column's kind.
 */
function misfitColumn(f: readonly string[], layout: Layout): number {
  for (const i of layout.amountColumns) if (isWord(f[i] ?? '')) return i;
  for (const i of layout.wordColumns) if (isNumber(f[i] ?? '')) return i;
  return -1;
}

/** Whether a value holds nothing: empty, blank or a placeholder such as "N/A". */
function noValue(v: string): boolean {
  if (v.length === 0) return true;
  // A digit first is a value (most often asked of amounts); no placeholder (isPlaceholder)
  // starts with one.
  const first = v.charCodeAt(0);
  if (first >= 48 && first <= 57) return false;
  return text(v) === null || isPlaceholder(v);
}

/** A mended row only if it fits (no word where an amount goes): otherwise it is no mend. */
function lineUp<T extends { fields: string[] }>(
  joined: T | null,
  fits: (fields: readonly string[]) => boolean,
): T | null {
  return joined !== null && fits(joined.fields) ? joined : null;
}

/** The row's width up to its last value that is not empty, at least `width`. */
function filledWidth(f: readonly string[], width: number): number {
  let end = f.length;
  while (end > width && (f[end - 1] as string).length === 0) end--;
  return end;
}

/**
 * A row's text read again with each CR as a line end, with the line each row starts on (from 1)
 * and how many lines those CRs ended, when it then holds several rows and each fits `width`
 * columns; else null (a CR inside a value of a row that fits is left to it).
 */
function rowsAtLoneCr(
  text: string,
  width: number,
): { rows: [string[], number][]; lines: number } | null {
  const rows: [string[], number][] = [];
  const splitter = new CsvRowSplitter((fields, line) => rows.push([fields, line]));
  const lf = text.replaceAll('\r\n', '\n');
  splitter.push(lf.replaceAll('\r', '\n'));
  splitter.end();
  if (rows.length < 2 || rows.some(([r]) => filledWidth(r, width) > width)) return null;
  let lines = 0;
  for (let k = lf.indexOf('\r'); k !== -1; k = lf.indexOf('\r', k + 1)) lines++;
  return { rows, lines };
}

/** Whether the row's values from column `from` on are all empty. */
function allEmpty(f: readonly string[], from: number): boolean {
  for (let i = from; i < f.length; i++) if ((f[i] as string).length > 0) return false;
  return true;
}

/** The value of column i, '' when the column is absent or the row short. */
/**
 * Whether a file's lines end with a `;` after their last value, told by its first row: a header
 * name never ends with one, and a file whose values are separated by `;` is one value here (its
 * wrong delimiter is said by onHeaderNames). Reported once; each row's `;` is then dropped.
 */
function endsWithSemicolon(fields: string[], line: number, report: ValidationReport): boolean {
  if (fields.length < 2 || !/;\s*$/.test(fields[fields.length - 1] ?? '')) return false;
  report.add('csv.line-end-semicolon', `row ${line}`);
  return true;
}

/** Drops the `;` after a row's last value (and any spaces after it). */
function dropSemicolon(fields: string[]): void {
  const last = fields.length - 1;
  const value = fields[last];
  if (value !== undefined) fields[last] = value.replace(/;\s*$/, '');
}

function cell(f: string[], i: number): string {
  return i === -1 ? '' : (f[i] ?? '');
}

/**
 * Whether the row is Excel's "sep=," line, which some exports put first to tell Excel the
 * delimiter; another delimiter declared there refuses the file.
 */
function isSepLine(fields: string[]): boolean {
  const declared = /^sep=(.?)$/i.exec(fields.join(',').trim());
  if (declared === null) return false;
  if (declared[1] !== ',') {
    throw new MrfReadError(
      'wrong-delimiter',
      `The CSV's first line (${fields.join(',').trim()}) declares another delimiter than ` +
        'commas; CMS CSV files use commas.',
    );
  }
  return true;
}

/** The CMS templates' placeholders in column names, and what stands in their place. */
const TEMPLATE_PLACEHOLDERS: ReadonlyMap<string, string> = new Map([
  ['[payer_name]', "the payer's name"],
  ['[plan_name]', "the plan's name"],
  ['[i]', "the code's number (code|1, code|2, …)"],
]);

/**
 * The columns whose names keep a template's placeholder (`standard_charge|[payer_name]|
 * [plan_name]|negotiated_dollar`, `code|[i]`): not read, each said as the kept error
 * `column.placeholder`. Read, their rates loaded under a payer "[payer_name]". CMS's validator
 * refuses such a file (PlaceholderError); a column left over from the template, empty beside the
 * hospital's own, would then cost every rate of the file.
 */
function templatePlaceholderColumns(
  keywords: readonly string[][],
  written: readonly string[],
  report: ValidationReport,
): Set<number> {
  const columns = new Set<number>();
  keywords.forEach((parts, i) => {
    const placeholder = parts.find((part) => TEMPLATE_PLACEHOLDERS.has(part));
    if (placeholder === undefined) return;
    columns.add(i);
    report.add(
      'column.placeholder',
      `column ${i + 1}`,
      `${(written[i] ?? '').trim()}: "${placeholder}" stands where ` +
        `${TEMPLATE_PLACEHOLDERS.get(placeholder) ?? ''} goes`,
    );
  });
  return columns;
}

/**
 * A header name written twice in row 1 (a second `hospital_name`, two licence columns, two
 * statements) refuses the file, as a column repeated in row 3 does: which value is the hospital's
 * cannot be told (CMS: DuplicateHeaderColumnError). Before, the first was read and the other
 * left without a word (the last, for a licence or a statement).
 */
function refuseRepeatedHeaderNames(names: readonly string[], written: readonly string[]): void {
  const seen = new Map<string, number>();
  names.forEach((name, i) => {
    if (name === '') return;
    const key = name.startsWith('license_number|')
      ? 'license_number'
      : name.startsWith(ATTESTATION_START)
        ? ATTESTATION_START
        : name;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, i);
      return;
    }
    throw new MrfReadError(
      'duplicate-columns',
      `The header name "${(written[i] ?? '').trim().slice(0, 80)}" of row 1 appears twice ` +
        `(columns ${first + 1} and ${i + 1}); the reader cannot tell which value is the hospital's.`,
    );
  });
}

/** The most values joined back in a header values row: more and the row is refused. */
const MAX_HEADER_JOINS = 4;

/**
 * Row 2's values lined up with row 1's names. A value written with an unquoted comma ("1
 * Hospital Rd, Oak Bluffs, MA") splits in two and shifts every value after it: the licence was
 * read as "Oak Bluffs" and the NPI as "MA 02557-1477", another identity for the hospital, and a
 * name with a comma put the date where the version goes. A row with more values than names is
 * mended only when exactly one way of joining its values back gives a valid date, version,
 * type 2 NPIs and attestation, said as `csv.header-misaligned`; otherwise the file is refused.
 * A row with fewer values is read as written unless one of those values is then invalid.
 */
function alignHeaderValues(
  names: readonly string[],
  values: string[],
  report: ValidationReport,
  line: number,
): string[] {
  const width = filledCount(names);
  const filled = filledCount(values);
  if (filled <= width && values.length >= width) return values;
  const checks = headerChecks(names);
  const counts = `${filled} values for ${width} names`;
  const row = `Row ${line} (the header values) has ${counts}`;
  const inPlace = checks.every(
    ([i, valid]) => (values[i] ?? '').trim() === '' || valid(values[i] ?? ''),
  );
  // A value under a column row 1 leaves unnamed, in a row no wider than row 1 (exports write
  // every row as wide as the widest), is no shift when the values before it are in place: it is
  // not read, as CMS's validator does not read it.
  if (filled > width && values.length <= names.length && inPlace) return values;
  if (filled < width) {
    if (inPlace) return values;
    throw new MrfReadError(
      'missing-header-rows',
      `${row}, and its values do not line up with them (a value left out?): the hospital's ` +
        'date, version, NPIs or attestation would be read from the wrong column.',
    );
  }
  // Values that read where they stand (a note past the last name) are read there, as before;
  // those past the names are not read, and that is said.
  if (inPlace) {
    report.add('csv.header-misaligned', `row ${line}`, `${counts}; those past the names not read`);
    return values;
  }
  const refused = new MrfReadError(
    'missing-header-rows',
    `${row}: a value with an unquoted comma? Its values cannot be matched to the names ` +
      "without guessing, and the hospital's licence, NPIs and version would be read from the " +
      'wrong columns. Quote the value that holds a comma ("1 Main St, Town").',
  );
  const extra = filled - width;
  const gaps = Array.from({ length: filled - 1 }, (_, i) => i);
  if (extra > MAX_HEADER_JOINS) throw refused;
  // The columns that say who the hospital is (date, version, licence, NPIs, attestation): none
  // holds a comma of its own, so no join falls in one.
  const telling = names.flatMap((name, i) =>
    checks.some(([c]) => c === i) || name.startsWith('license_number') ? [i] : [],
  );
  const fitting: { fields: string[]; joined: number[] }[] = [];
  for (const chosen of choices(gaps, extra)) {
    const candidate = joinGaps(values.slice(0, filled), chosen);
    if (candidate.joined.some((i) => telling.includes(i))) continue;
    if (checks.every(([i, valid]) => valid(candidate.fields[i] ?? ''))) fitting.push(candidate);
  }
  // Several joins fit when the comma is in one of the texts side by side (name, location,
  // address). Read alike in the telling columns, the address takes the comma (an address has
  // commas more often than a name), else the first text; read otherwise, the file is refused.
  const first = fitting[0];
  if (
    first === undefined ||
    fitting.some((f) => telling.some((i) => f.fields[i] !== first.fields[i]))
  ) {
    throw refused;
  }
  const address = names.indexOf('hospital_address');
  const { fields, joined } =
    fitting.find((f) => f.joined.every((i) => i === address)) ??
    fitting.find((f) => f.joined.includes(address)) ??
    first;
  const read = joined.map((i) => `${names[i] ?? ''} ${JSON.stringify(fields[i])}`).join(', ');
  report.add('csv.header-misaligned', `row ${line}`, `${counts}; read ${read}`);
  return fields;
}

/** The values with each gap chosen (the comma after value `gap`) joined, and where joins are. */
function joinGaps(
  values: readonly string[],
  gaps: readonly number[],
): { fields: string[]; joined: number[] } {
  const fields: string[] = [];
  const joined: number[] = [];
  values.forEach((value, i) => {
    const last = fields.length - 1;
    if (i === 0 || !gaps.includes(i - 1)) fields.push(value);
    else {
      fields[last] = `${fields[last] ?? ''},${value}`;
      if (joined.at(-1) !== last) joined.push(last);
    }
  });
  return { fields, joined };
}

/** How many values up to the last that is not empty. */
function filledCount(values: readonly string[]): number {
  let end = values.length;
  while (end > 0 && (values[end - 1] as string).trim().length === 0) end--;
  return end;
}

/**
 * The header columns whose values can be checked, by their index: a date, a version, type 2 NPIs
 * (digits, nine to eleven, as the reader reads them with their own issues), a confirmation (true
 * or false, or a word the reader takes for one, `confirmation`).
 */
function headerChecks(names: readonly string[]): [number, (value: string) => boolean][] {
  const scratch = new ValidationReport();
  const checks: [number, (value: string) => boolean][] = [];
  names.forEach((name, i) => {
    if (name === 'last_updated_on') {
      checks.push([i, (v) => isoDate(v, scratch, '') !== null]);
    } else if (name === 'version') {
      checks.push([i, (v) => cmsVersion(v) !== null]);
    } else if (name === 'type_2_npi') {
      const npis = (v: string) => splitPipes(v);
      checks.push([
        i,
        (v) => npis(v).length > 0 && npis(v).every((n) => /^\d{9,11}(\.0+)?$/.test(n)),
      ]);
    } else if (name.startsWith(ATTESTATION_START)) {
      checks.push([i, (v) => confirmation(v, scratch, '') !== null]);
    }
  });
  return checks;
}

/** How many titles or notes above the header rows are read past before a file is refused. */
const MAX_TITLE_LINES = 5;

/**
 * A row above the header rows that is a title or a note, not the template's first row: one or two
 * values, none of them hospital_name. A first row of more values (another file's column names)
 * still refuses the file at once.
 */
function isTitleLine(fields: string[]): boolean {
  let values = 0;
  for (const f of fields) {
    if (!f.trim()) continue;
    if (++values > 2 || /hospital[\s_]*name/i.test(f)) return false;
  }
  return values > 0;
}

/** Whether the row has a `description` column: it is the column names row. */
function hasDescription(f: readonly string[]): boolean {
  return f.some((v) => v.trim().toLowerCase() === 'description');
}

function isBlank(f: string[]): boolean {
  for (const v of f) if (v.length > 0 && v.trim().length > 0) return false;
  return true;
}

/** A rate's estimated or allowed amount from its column (see allowedAmount). */
function allowed(
  f: string[],
  column: number,
  report: ValidationReport,
  location: string,
  field: string,
): number | null {
  const read = amount(cell(f, column), report, location, field, ALLOWED);
  return allowedAmount(read, report, location, field);
}

/**
 * Whether the payer's columns are empty, leaving out those it shares with other payers
 * (`sharedMethodology`, `sharedNotes`; Layout): they alone make no rate of its own.
 */
function slotEmpty(
  f: string[],
  c: PayerColumns,
  sharedMethodology = -1,
  sharedNotes = -1,
): boolean {
  return (
    empty(f, c.payer) &&
    empty(f, c.plan) &&
    empty(f, c.dollar) &&
    empty(f, c.percentage) &&
    empty(f, c.algorithm) &&
    (c.methodology === sharedMethodology || empty(f, c.methodology)) &&
    empty(f, c.estimated) &&
    empty(f, c.median) &&
    empty(f, c.p10) &&
    empty(f, c.p90) &&
    empty(f, c.count) &&
    (c.notes === sharedNotes || empty(f, c.notes))
  );
}

function empty(f: string[], i: number): boolean {
  if (i === -1) return true;
  const v = f[i];
  return v === undefined || v.length === 0;
}
