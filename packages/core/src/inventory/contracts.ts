import { z } from 'zod';
import { jsonParameter, requiredString } from '../api/common.ts';
import { AMOUNT_ORIGINS } from '../rates/effective-amount.ts';
import { stateByCode, stateByName } from '../rates/states.ts';
import { LINES_OF_BUSINESS } from '../rates/line-of-business.ts';

// search-and-accounts §2 "Inventory list", §3 entities, §7 calls.

/** `GET master/getallstates`: states sorted by name. stateID is the state's FIPS number. */
export const StateItemSchema = z.object({
  stateID: z.number().int(),
  stateName: z.string(),
  stateCode: z.string(),
});
export type StateItem = z.infer<typeof StateItemSchema>;

/** An MSA option: msaID and TableName are the CBSA code (TableName names the rate partition the old product queried). */
export const MsaItemSchema = z.object({
  msaID: z.string(),
  MSA: z.string(),
  TableName: z.string(),
});
export type MsaItem = z.infer<typeof MsaItemSchema>;

/** "Atlantis is not a state we know."; a state's code where its name is asked for says so. */
const unknownStateName = (label: string) => ({
  error: (issue: { input?: unknown }) => {
    const input = String(issue.input);
    const state = stateByCode(input);
    return state
      ? `${label} must be a state's name such as ${state.name}, not its code ${input.trim()}.`
      : `${input} is not a state we know.`;
  },
});

/** A state's name, any case: one of the 50, DC or PR. */
const stateName = (label: string) =>
  z
    .string({ error: requiredString(label) })
    .trim()
    .max(60, { abort: true, error: `${label} must not be more than 60 characters.` });

/**
 * A metro area's id as the MSA lists give it: a CBSA code, or a state's non-metro area
 * (`nonMetroAreaCode`), five digits either way; a number or text, trimmed.
 */
export const metroAreaId = (label: string, { emptyIsAny = false } = {}) =>
  z
    .union([z.string(), z.number()], {
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? `${label} is required.`
          : `${label} must be text or a number.`,
    })
    .transform((value) => String(value).trim())
    .pipe(
      z
        .string()
        .regex(
          emptyIsAny ? /^(\d{5})?$/ : /^\d{5}$/,
          `${label} must be a metro area id of five digits such as 11260.`,
        ),
    );

export const MsaByStateCodeQuerySchema = z.object({
  stateCode: z
    .string({ error: requiredString('stateCode') })
    .trim()
    .regex(/^[A-Za-z]{2}$/, {
      abort: true,
      error: 'stateCode must be a two-letter state code such as AK.',
    })
    .refine((code) => stateByCode(code) !== undefined, {
      error: (issue) => `${String(issue.input)} is not a state we know.`,
    }),
});

export const MsaByStateNameQuerySchema = z.object({
  state: stateName('state')
    .min(1, { abort: true, error: 'state is required.' })
    .refine((name) => stateByName(name) !== undefined, unknownStateName('state')),
});

export const HospitalFilterSchema = z
  .strictObject(
    {
      // Empty or null, as absent, is any state; the same for msaId and metro areas.
      statename: stateName('statename')
        .refine(
          (name) => name === '' || stateByName(name) !== undefined,
          unknownStateName('statename'),
        )
        .nullish(),
      msaId: metroAreaId('msaId', { emptyIsAny: true }).nullish(),
    },
    {
      // A misspelt key would otherwise list every hospital.
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `FilterJson takes statename and msaId, not ${issue.keys.join(' or ')}.`
          : 'FilterJson must be a JSON object such as {"statename":"Alaska","msaId":"11260"}.',
    },
  )
  .transform((filter) => ({
    stateName: filter.statename || undefined,
    msaId: filter.msaId || undefined,
  }));

/** `GET Inventory/getHospitalbyFilter?FilterJson={"statename":…,"msaId":…}`. */
export const HospitalFilterQuerySchema = z.object({
  FilterJson: jsonParameter(
    'FilterJson',
    1024,
    'JSON such as {"statename":"Alaska","msaId":"11260"}',
    HospitalFilterSchema,
  ),
});

export const HospitalItemSchema = z.object({
  hospitalID: z.string(),
  facilityName: z.string(),
});
export type HospitalItem = z.infer<typeof HospitalItemSchema>;

/** One row of the inventory table, in the spec's column order. */
export const InventoryRowSchema = z.object({
  hospitalID: z.string(),
  stateName: z.string(),
  msaName: z.string(),
  careCenter: z.string(),
  facilityName: z.string(),
  hasFiles: z.boolean(),
  cashRates: z.boolean(),
  commercialRates: z.boolean(),
  medicareRates: z.boolean(),
  inpatient: z.boolean(),
  outpatient: z.boolean(),
  drugs: z.boolean(),
});
export type InventoryRow = z.infer<typeof InventoryRowSchema>;

export const HospitalIdParamsSchema = z.object({
  hospitalId: z.uuid(
    'hospitalId must be a hospital id: a UUID such as 5b6c2f0e-8d1a-4c3e-9f47-2a1b3c4d5e6f.',
  ),
});

const rateCount = z.number().int().nonnegative();

/** Where a rate's dollar figure comes from; `none` when it has none (an algorithm alone). */
export const RATE_MIX_ORIGINS = [...AMOUNT_ORIGINS, 'none'] as const;

/**
 * What a file's payer rates are, counted while it was read: how many payers (canonical, so
 * "BCBS" and "Blue Cross Blue Shield of Florida" are one) and payer/plan pairs, and its rates by
 * the plan's line of business and by where their dollar figure comes from.
 */
export const RateMixSchema = z.object({
  payers: rateCount,
  plans: rateCount,
  byLineOfBusiness: z.record(z.enum(LINES_OF_BUSINESS), rateCount),
  byOrigin: z.record(z.enum(RATE_MIX_ORIGINS), rateCount),
});
export type RateMix = z.infer<typeof RateMixSchema>;

export const ValidationLineSchema = z.object({
  sentence: z.string(),
  examples: z.array(z.string()),
});
export type ValidationLine = z.infer<typeof ValidationLineSchema>;

/** How far a file being loaded has been read, as the ingest writes it every few seconds. */
export const FileProgressSchema = z.object({
  /**
   * `checking`: the file's bytes are hashed first, to tell whether they are the ones read
   * before (a local file of a size read before, a download whose server sends no validators);
   * `reading`: it is read. Runs written before session 51 said nothing: they were reading.
   */
  phase: z.enum(['checking', 'reading']).default('reading'),
  bytesRead: z.number().int().min(0),
  /** The file's size (a download's announced length), or null when not known until its end. */
  totalBytes: z.number().int().min(0).nullable(),
  /** Records (a JSON item, a CSV row) read so far. */
  records: z.number().int().min(0),
});
export type FileProgress = z.infer<typeof FileProgressSchema>;

export const HospitalFileSchema = z.object({
  /** The file's name (a URL's last segment; a zip archive's file as `archive.zip#name`). */
  source: z.string(),
  /** Where the hospital publishes the file, for a file read from an http(s) URL; else null. */
  sourceUrl: z.string().nullable(),
  /**
   * What the hospital's cms-hpt.txt says of the file, for a file read through it (else null):
   * the page that lists it, and whom to ask about it.
   */
  sourcePageUrl: z.string().nullable(),
  contactName: z.string().nullable(),
  contactEmail: z.string().nullable(),
  /**
   * The hospital's cms-hpt.txt the file was found through, when that is an http(s) address (else
   * null): where RateLens looks for the hospital's newer files.
   */
  listedInUrl: z.string().nullable(),
  /**
   * How the run ended: `loading`; `loaded` (the file in use); `replaced` (in use until a later
   * file); `unchanged` (the file in use, the same bytes again); `skipped` (a file read before and
   * not put in use, the same bytes again); `older` (older than the file in use); `failed`.
   */
  status: z.string(),
  format: z.string().nullable(),
  version: z.string().nullable(),
  lastUpdatedOn: z.string().nullable(),
  items: z.number(),
  rates: z.number(),
  rejected: z.number(),
  /**
   * The validation report in plain words: the totals, then a sentence per rule with the first
   * examples of where it broke ('row 9: standard_charge|gross "abc"'). Runs recorded before the
   * examples were kept have none. Empty for a file with nothing to report (no error, no warning,
   * nothing rejected), for one not read yet, and for a run that knew its file unchanged without
   * reading it (by its hash or its server's 304): the entry of the run that read it (the file in
   * use, or for a skipped run the one not put in use) has the report's lines.
   */
  validation: z.array(ValidationLineSchema),
  /** Null for a file that was not read to its end, or read before RateLens counted this. */
  rateMix: RateMixSchema.nullable(),
  /** When the run finished (ISO 8601); null while it is loading. */
  loadedAt: z.string().nullable(),
  /**
   * How many runs this entry stands for. A file found unchanged (or skipped) run after run (a
   * daily download of the same bytes) is one entry for all those runs of its source, listed as the
   * newest of them; otherwise 1.
   */
  timesRead: z.number().int().min(1),
  /** When the first of the entry's runs finished (ISO 8601): loadedAt, for an entry of one run. */
  firstReadAt: z.string().nullable(),
  /**
   * For a replaced run, what took its place (the next run loaded for the hospital): `same-file`,
   * its own bytes read again (the same SHA-256), as `npm run ingest -- --reload` does; `newer`, a
   * file of a later last_updated_on; `same-date`, another file of the same last_updated_on (a
   * hospital's rates come from one file: of two of one date, the one loaded last); `undated`,
   * another file where one of the two gives no last_updated_on (the one loaded later is kept, so
   * neither is known to be the newer). Null for any other run, or when that run is not known.
   */
  replacedBy: z.enum(['same-file', 'newer', 'same-date', 'undated']).nullable(),
  error: z.string().nullable(),
  /**
   * For a run still loading, how far its read is (updated every few seconds; null until the
   * first update); null for any other run.
   */
  progress: FileProgressSchema.nullable(),
});

export const HospitalDetailSchema = z.object({
  hospitalID: z.string(),
  facilityName: z.string(),
  stateName: z.string(),
  msaName: z.string(),
  addresses: z.array(z.string()),
  locations: z.array(z.string()),
  npis: z.array(z.string()),
  isDemo: z.boolean(),
  /** The rate search's HospitalType and healthsystemType, set by an admin (null until then). */
  hospitalType: z.string().nullable(),
  healthsystemType: z.string().nullable(),
  files: z.array(HospitalFileSchema),
});
export type HospitalDetail = z.infer<typeof HospitalDetailSchema>;

/** A hospital's type or system label: trimmed, at most 60 characters; empty or null clears it. */
const classificationLabel = (name: string) =>
  z
    .string({ error: `${name} must be text or null.` })
    .trim()
    .max(60, `${name} must not be more than 60 characters.`)
    .nullable()
    .transform((value) => (value ? value : null));

/**
 * `PUT api/admin/hospitals/{hospitalId}/classification` (admin): the spec's HospitalType and
 * healthsystemType of a result row, which CMS files do not carry.
 */
export const HospitalClassificationSchema = z.object({
  hospitalType: classificationLabel('hospitalType'),
  healthsystemType: classificationLabel('healthsystemType'),
});
export type HospitalClassification = z.output<typeof HospitalClassificationSchema>;
/** The labels as stored (the answer of the classification call). */
export const HospitalLabelsSchema = z.object({
  hospitalType: z.string().nullable(),
  healthsystemType: z.string().nullable(),
});
export type HospitalLabels = z.infer<typeof HospitalLabelsSchema>;

/**
 * `POST api/admin/hospitals/{hospitalId}/refresh` (admin): the background worker is asked to read
 * the hospital's file again where it came from, and to load it if it changed. `waiting`: asked
 * now; `already-waiting`: an earlier request for this hospital is waiting or being read (the
 * page follows that one's run).
 */
export const HospitalRefreshSchema = z.object({
  status: z.enum(['waiting', 'already-waiting']),
});
export type HospitalRefresh = z.infer<typeof HospitalRefreshSchema>;

/**
 * A hospital whose latest read of its file failed (`GET /api/admin/files/failing`, admin only):
 * a 404, a file cut short, one that is no longer a CMS file. Its rates meanwhile are those of
 * the file in use, if any.
 */
export const FailingFileSchema = z.object({
  hospitalID: z.string(),
  facilityName: z.string(),
  stateName: z.string(),
  /** The file's name and, for a file read from a site, its address (as on the hospital's page). */
  source: z.string(),
  sourceUrl: z.string().nullable(),
  error: z.string().nullable(),
  /** When the first failed read since the last good one began (ISO 8601). */
  failingSince: z.string(),
  /** When the latest one began. */
  lastTriedAt: z.string(),
  /** The failed reads since the last good one. */
  failures: z.number().int().min(1),
  /** When the file whose rates are shown meanwhile was read; null when none is in use. */
  inUseReadAt: z.string().nullable(),
});
export type FailingFile = z.infer<typeof FailingFileSchema>;

/**
 * What a refresh of the hospitals' files did with them, as the worker records it with its job:
 * files loaded, found unchanged, skipped, older than the one in use, failed; lists (cms-hpt.txt)
 * that could not be read; local files no longer there; files left unread because the refresh
 * stopped early (they are read next time).
 */
export const RefreshCountsSchema = z.object({
  loaded: z.number().int().min(0),
  unchanged: z.number().int().min(0),
  skipped: z.number().int().min(0),
  older: z.number().int().min(0),
  failed: z.number().int().min(0),
  unreadable: z.number().int().min(0),
  missing: z.number().int().min(0),
  notRead: z.number().int().min(0),
});
export type RefreshCounts = z.infer<typeof RefreshCountsSchema>;

/**
 * How the latest daily refresh ended: `running` (not yet); `completed`; `stopped-early` (it
 * completed, but started no further file once the worker was stopping or its time limit was
 * near: `notRead` files wait for the next one); `failed` (its error); `timed-out` (still running
 * at its time limit, when pg-boss records it failed and the file at hand is stopped).
 */
export const RefreshEndingSchema = z.enum([
  'running',
  'completed',
  'stopped-early',
  'failed',
  'timed-out',
]);
export type RefreshEnding = z.infer<typeof RefreshEndingSchema>;

/** The latest daily refresh (ADR 0021): when it ran and how it ended. */
export const ScheduledRefreshSchema = z.object({
  startedAt: z.string(),
  /** Null while it runs. */
  endedAt: z.string().nullable(),
  ending: RefreshEndingSchema,
  /** Why it failed or stopped early; null otherwise. */
  reason: z.string().nullable(),
  /** How long it may run, in seconds (23 hours). */
  timeLimitSeconds: z.number().int().min(0),
  /** Null when the job recorded none: it is running, failed, or was stopped at its time limit. */
  counts: RefreshCountsSchema.nullable(),
});
export type ScheduledRefresh = z.infer<typeof ScheduledRefreshSchema>;

/**
 * `GET /api/admin/refresh` (admin only): the daily refresh of the hospitals' files (ADR 0021).
 * `worker`: `never` when no background worker has run on this database (the daily refresh has
 * never run: WORKER=off and no `npm run worker`); `stopped` when none has kept the schedule for
 * two minutes (`workerSeenAt` says when one last did); `running` otherwise.
 */
export const RefreshStatusSchema = z.object({
  worker: z.enum(['never', 'running', 'stopped']),
  workerSeenAt: z.string().nullable(),
  /** Five cron fields in UTC, as the latest worker to start set it; null when it is off (or never set). */
  schedule: z.string().nullable(),
  /** When the schedule next fires; null without one. */
  nextRunAt: z.string().nullable(),
  /** The latest daily refresh that started; null when none has. */
  latest: ScheduledRefreshSchema.nullable(),
  /** Administrators' requests to read one hospital's file again: waiting, being read. */
  requests: z.object({
    waiting: z.number().int().min(0),
    running: z.number().int().min(0),
  }),
});
export type RefreshStatus = z.infer<typeof RefreshStatusSchema>;
