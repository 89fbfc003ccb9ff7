/**
 * ZIP → county FIPS corrections, consulted before anything else. Add a ZIP here when a hospital's
 * ZIP has no coordinates in the `zipcodes` package, its centroid lands in the wrong county (ZIPs
 * that straddle county lines, coastal centroids in water), or, in Connecticut, its post-office
 * name is not a place (`connecticut.ts` places the others by town), with the reason.
 */
export const ZIP_COUNTY_OVERRIDES: Readonly<
  Record<string, { countyFips: string; reason: string }>
> = {
  '06386': {
    countyFips: '09180',
    reason: 'Waterford, CT: a company’s own ZIP, named "Bureau Business Practice" after it',
  },
  '06832': {
    countyFips: '09190',
    reason: 'Greenwich, CT: business reply mail, named "Brm"',
  },
};
