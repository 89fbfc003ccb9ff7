/**
 * ZIP → county FIPS corrections, consulted before the coordinate lookup. Add a ZIP here when a
 * hospital's ZIP has no coordinates in the `zipcodes` package or its centroid lands in the wrong
 * county (ZIPs that straddle county lines, coastal centroids in water), with the reason.
 *
 * Connecticut: us-atlas draws the 8 counties abolished in 2022, while the 2023 CBSA delineation
 * uses the 9 planning regions (09110–09190), so every CT ZIP needs an entry to join a CBSA. The
 * entries below are ZIPs of the main hospital cities, each a town wholly inside one planning
 * region; the rest of the state is not done yet.
 */
export const ZIP_COUNTY_OVERRIDES: Readonly<
  Record<string, { countyFips: string; reason: string }>
> = {
  '06106': { countyFips: '09110', reason: 'Hartford: Capitol Planning Region (CT 2022)' },
  '06102': { countyFips: '09110', reason: 'Hartford: Capitol Planning Region (CT 2022)' },
  '06510': { countyFips: '09170', reason: 'New Haven: South Central CT Planning Region (CT 2022)' },
  '06519': { countyFips: '09170', reason: 'New Haven: South Central CT Planning Region (CT 2022)' },
  '06610': {
    countyFips: '09120',
    reason: 'Bridgeport: Greater Bridgeport Planning Region (CT 2022)',
  },
  '06606': {
    countyFips: '09120',
    reason: 'Bridgeport: Greater Bridgeport Planning Region (CT 2022)',
  },
  '06902': { countyFips: '09190', reason: 'Stamford: Western CT Planning Region (CT 2022)' },
  '06810': { countyFips: '09190', reason: 'Danbury: Western CT Planning Region (CT 2022)' },
  '06708': { countyFips: '09140', reason: 'Waterbury: Naugatuck Valley Planning Region (CT 2022)' },
  '06360': { countyFips: '09180', reason: 'Norwich: Southeastern CT Planning Region (CT 2022)' },
  '06320': { countyFips: '09180', reason: 'New London: Southeastern CT Planning Region (CT 2022)' },
};
