import { describe, expect, it } from 'vitest';
import { MEDICARE_CONVERSION_FACTOR_2025, medicareAllowed } from './medicare.ts';

// CPT 99213, PPRRVU2025_Oct.csv: work 1.30, non-facility PE 1.35, facility PE 0.57, MP 0.10.
const work = 1.3;
const nonFacilityPe = 1.35;
const facilityPe = 0.57;
const mp = 0.1;

describe('medicareAllowed', () => {
  it('uses the 2025 conversion factor by default', () => {
    expect(MEDICARE_CONVERSION_FACTOR_2025).toBe(32.3465);
  });

  // Expected values computed by hand with Python's decimal module, half-up to cents:
  // (1.30×1 + 1.35×0.94 + 0.10×1.467) × 32.3465 = 87.84339005.
  it('prices 99213 in the office in Rest of Florida (09102/99)', () => {
    expect(
      medicareAllowed(
        { workRvu: work, peRvu: nonFacilityPe, mpRvu: mp },
        { workGpci: 1, peGpci: 0.94, mpGpci: 1.467 },
      ),
    ).toBe(87.84);
  });

  it('prices 99213 in a facility in Rest of Massachusetts (14212/99)', () => {
    expect(
      medicareAllowed(
        { workRvu: work, peRvu: facilityPe, mpRvu: mp },
        { workGpci: 1.017, peGpci: 1.061, mpGpci: 0.796 },
        MEDICARE_CONVERSION_FACTOR_2025,
      ),
    ).toBe(64.9);
  });

  it('applies the Alaska work GPCI floor of 1.5 as given', () => {
    expect(
      medicareAllowed(
        { workRvu: work, peRvu: nonFacilityPe, mpRvu: mp },
        { workGpci: 1.5, peGpci: 1.081, mpGpci: 0.592 },
      ),
    ).toBe(112.2);
  });

  it('scales with another conversion factor', () => {
    expect(
      medicareAllowed(
        { workRvu: 1, peRvu: 1, mpRvu: 1 },
        { workGpci: 1, peGpci: 1, mpGpci: 1 },
        10,
      ),
    ).toBe(30);
  });
});
