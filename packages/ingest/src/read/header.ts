import type { CmsVersion, MrfFormat, MrfHeader } from '../model.ts';
import type { ValidationReport } from '../validate/report.ts';
import { MrfReadError } from './errors.ts';
import { STATE_CODES, cmsVersion, looksLikeEin } from './normalise.ts';

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
    if (h.attestationConfirmed !== true || h.attesterName === null) {
      report.add('required.attestation', 'attestation');
    }
  } else if (h.attestationConfirmed !== true) {
    report.add('required.attestation', 'affirmation');
  }
}
