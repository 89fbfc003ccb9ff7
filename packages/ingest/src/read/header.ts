import { isNpi } from '@ratelens/core';
import type { CmsVersion, MrfFormat, MrfHeader } from '../model.ts';
import type { ValidationReport } from '../validate/report.ts';
import { MrfReadError } from './errors.ts';
import { STATE_CODES, cmsVersion, looksLikeEin } from './normalise.ts';

/**
 * The statements a hospital confirms, word for word as the schemas require them (their `const`):
 * v3.0.0's attestation, and the affirmation of 2.0.0 to 2.2.1. A CSV writes it as a column name.
 */
export const CMS_ATTESTATION =
  'To the best of its knowledge and belief, this hospital has included all applicable standard charge information in accordance with the requirements of 45 CFR 180.50, and the information encoded is true, accurate, and complete as of the date in the file. This hospital has included all payer-specific negotiated charges in dollars that can be expressed as a dollar amount. For payer-specific negotiated charges that cannot be expressed as a dollar amount in the machine-readable file or not knowable in advance, the hospital attests that the payer-specific negotiated charge is based on a contractual algorithm, percentage or formula that precludes the provision of a dollar amount and has provided all necessary information available to the hospital for the public to be able to derive the dollar amount, including, but not limited to, the specific fee schedule or components referenced in such percentage, algorithm or formula.';
export const CMS_AFFIRMATION =
  'To the best of its knowledge and belief, the hospital has included all applicable standard charge information in accordance with the requirements of 45 CFR 180.50, and the information encoded is true, accurate, and complete as of the date indicated.';

/** A statement's words with curly quotes and spacing set aside (letter case is, by comparing). */
function statementWords(statement: string): string[] {
  return statement
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/(?<!\s)\s+([,.;:])/g, '$1')
    .split(/\s+/)
    .filter((word) => word.length > 0);
}

/** Up to eight words from `from`, as an example shows them. */
const wordsFrom = (words: string[], from: number) =>
  `"${words.slice(from, from + 8).join(' ')}${words.length > from + 8 ? '…' : ''}"`;

/**
 * Checks the statement a file confirms against CMS's words for its version: another statement
 * (words changed, left out or cut short) is `attestation.wording`, naming where it parts from
 * CMS's; the same words in another letter case, quotes or spacing are `attestation.spacing`.
 */
export function checkStatement(
  written: string | null,
  version: CmsVersion,
  report: ValidationReport,
  location: string,
): void {
  const cms = version === '3.0.0' ? CMS_ATTESTATION : CMS_AFFIRMATION;
  if (written === cms) return;
  if (written === null) {
    report.add('attestation.wording', location, 'no statement written');
    return;
  }
  const theirs = statementWords(written);
  const ours = statementWords(cms);
  let same = 0;
  while (same < theirs.length && theirs[same]?.toLowerCase() === ours[same]?.toLowerCase()) same++;
  if (same === theirs.length && same === ours.length) {
    report.add('attestation.spacing', location);
  } else if (same === theirs.length) {
    report.add('attestation.wording', location, `ends before CMS's ${wordsFrom(ours, same)}`);
  } else {
    report.add(
      'attestation.wording',
      location,
      `from word ${same + 1}, ${wordsFrom(theirs, same)} where CMS writes ${wordsFrom(ours, same)}`,
    );
  }
}

export function emptyHeader(
  format: MrfFormat,
  version: CmsVersion,
  declared: string | null,
): MrfHeader {
  return {
    format,
    version,
    declaredVersion: declared,
    hospitalName: '',
    lastUpdatedOn: null,
    locationNames: [],
    addresses: [],
    licenseNumber: null,
    licenseState: null,
    type2Npis: [],
    attesterName: null,
    attestationConfirmed: null,
    generalContractProvisions: null,
  };
}

const KNOWN = '2.0.0, 2.1.0, 2.2.0, 2.2.1 and 3.0.0';

/**
 * The version from what the file declares; `inferred` (from the file's shape) stands in when
 * nothing is declared, and wins when it is 3.0.0 (from `location_name`, `type_2_npi` or
 * `attestation`, which only 3.0.0 has) and the file declares a v2 version: such a file is read by
 * 3.0.0's rules, said once, instead of breaking 2.2.1's on every percentage rate. A declared
 * version we do not know ends the read: guessing the rules of an unknown version would report
 * nonsense.
 */
export function resolveVersion(
  declared: string | null,
  inferred: CmsVersion | null,
  report: ValidationReport,
): { version: CmsVersion; declared: string | null } {
  const written = declared?.trim() ?? '';
  if (written.length > 0) {
    const version = cmsVersion(written);
    if (version === null) {
      throw new MrfReadError(
        'unknown-version',
        `The file declares version "${written}", which is not a CMS version this reader knows (${KNOWN}).`,
      );
    }
    // Only fields 3.0.0 added tell a layout for sure: a 3.0.0 file may keep v2's header name.
    if (inferred === '3.0.0' && version !== '3.0.0') {
      report.add(
        'version.layout-differs',
        'version',
        `${JSON.stringify(written)}, read as ${inferred}`,
      );
      return { version: inferred, declared: written };
    }
    if (version !== written) {
      report.add('version.declared-differs', 'version', JSON.stringify(written));
      return { version, declared: written };
    }
    return { version, declared: null };
  }
  if (inferred === null) {
    throw new MrfReadError(
      'unknown-version',
      `The file declares no CMS version and its layout does not tell one (known: ${KNOWN}).`,
    );
  }
  report.add('required.version', 'version', `read as ${inferred} from the layout`);
  return { version: inferred, declared: null };
}

/** An NPI with a decimal point and zeros after it, as pandas writes a column of numbers. */
const DECIMAL_NPI = /^\d{10}\.0+$/;

/** Ten-digit numbers separated by commas, semicolons or spaces: "1234567893, 1245319599". */
const SEPARATED_NPIS = /^\d{10}(?:(?:\s*[,;]\s*|\s+)\d{10})+$/;
const NPI_SEPARATOR = /\s*[,;]\s*|\s+/;

/**
 * Type 2 NPIs as written, but one written as a decimal (`1234567893.0`) without its decimals
 * (`npi.decimal`): an NPI is ten digits, so nothing else can be meant. NPIs separated by another
 * mark than CMS's `|` ("1234567893, 1245319599") are read as the NPIs they are (`npi.separator`).
 */
export function readNpis(npis: string[], report: ValidationReport, location: string): string[] {
  return npis.flatMap((npi) => {
    if (SEPARATED_NPIS.test(npi)) {
      report.add('npi.separator', location, JSON.stringify(npi));
      return npi.split(NPI_SEPARATOR);
    }
    if (!DECIMAL_NPI.test(npi)) return [npi];
    report.add('npi.decimal', location, JSON.stringify(npi));
    return [npi.slice(0, npi.indexOf('.'))];
  });
}

/** The header rules of the schemas (required properties, licence state enum, v3 NPIs and attestation). */
export function checkHeader(h: MrfHeader, report: ValidationReport): void {
  if (h.hospitalName.length === 0) report.add('required.hospital_name', 'hospital_name');
  // A date written but unreadable is said once, as date.invalid.
  const unreadable = report
    .examples('date.invalid')
    .some((e) => e.location.endsWith('last_updated_on'));
  if (h.lastUpdatedOn === null && !unreadable) {
    report.add('required.last_updated_on', 'last_updated_on');
  }
  if (h.locationNames.length === 0) report.add('required.location_name', 'location_name');
  if (h.addresses.length === 0) report.add('required.hospital_address', 'hospital_address');
  if (h.licenseState === null || !STATE_CODES.has(h.licenseState)) {
    report.add(
      'required.license_state',
      'license_information',
      JSON.stringify(h.licenseState ?? ''),
    );
  }
  if (h.licenseNumber !== null && looksLikeEin(h.licenseNumber)) {
    report.add('license.ein', 'license_information', h.licenseNumber);
  }
  if (h.version === '3.0.0') {
    if (h.type2Npis.length === 0) report.add('required.type_2_npi', 'type_2_npi');
    for (const npi of h.type2Npis) {
      if (!isNpi(npi)) report.add('npi.invalid', 'type_2_npi', JSON.stringify(npi));
    }
    if (h.attestationConfirmed !== true || h.attesterName === null) {
      report.add('required.attestation', 'attestation');
    }
  } else if (h.attestationConfirmed !== true) {
    report.add('required.attestation', 'affirmation');
  }
}
