import type { HospitalDetail } from '@ratelens/core';

export type HospitalFile = HospitalDetail['files'][number];

/**
 * A run of a hospital's file as the hospital's page lists it: a loaded v3.0 JSON file read once,
 * its first reading when it was loaded unless the overrides say otherwise.
 */
export function hospitalFile(overrides: Partial<HospitalFile>): HospitalFile {
  const loadedAt =
    overrides.loadedAt === undefined ? '2026-04-01T10:00:00.000Z' : overrides.loadedAt;
  return {
    source: 'file.json',
    sourceUrl: null,
    sourcePageUrl: null,
    contactName: null,
    contactEmail: null,
    listedInUrl: null,
    status: 'loaded',
    format: 'json',
    version: '3.0.0',
    lastUpdatedOn: '2026-03-27',
    items: 10452,
    rates: 29143,
    rejected: 12,
    validation: [],
    rateMix: null,
    loadedAt,
    timesRead: 1,
    firstReadAt: loadedAt,
    replacedBy: null,
    error: null,
    progress: null,
    ...overrides,
  };
}
