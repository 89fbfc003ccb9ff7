import { CMS_ATTESTATION } from '../read/header.ts';

/**
 * The header of a v3.0 JSON file with every field CMS requires, valid (an Oregon hospital, a real
 * type 2 NPI), with `fields` added or written over.
 */
export function v3JsonHeader(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    hospital_name: 'Test Hospital',
    last_updated_on: '2026-01-15',
    version: '3.0.0',
    location_name: ['Test Hospital'],
    hospital_address: ['1 Main St, Portland, OR 97201'],
    license_information: { license_number: '1', state: 'OR' },
    type_2_npi: ['1306938071'],
    attestation: {
      attestation: CMS_ATTESTATION,
      attester_name: 'A Person',
      confirm_attestation: true,
    },
    ...fields,
  };
}
