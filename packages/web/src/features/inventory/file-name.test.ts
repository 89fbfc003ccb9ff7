import { describe, expect, it } from 'vitest';
import { fileNameParts } from './file-name.tsx';

describe('fileNameParts', () => {
  it('cuts the stem after each underscore, hyphen and dot, and keeps the extension whole', () => {
    expect(fileNameParts('920123456_providence-alaska_standardcharges.csv')).toEqual({
      stem: ['920123456_', 'providence-', 'alaska_', 'standardcharges'],
      extension: '.csv',
    });
    expect(fileNameParts('adventhealth_standardcharges_v3.0.0_excerpt.json')).toEqual({
      stem: ['adventhealth_', 'standardcharges_', 'v3.', '0.', '0_', 'excerpt'],
      extension: '.json',
    });
  });

  it('keeps a short extension before the last with it, and a name without one whole', () => {
    expect(fileNameParts('charges.json.gz')).toEqual({ stem: ['charges'], extension: '.json.gz' });
    expect(fileNameParts('standardcharges')).toEqual({
      stem: ['standardcharges'],
      extension: '',
    });
    // A name that is all extension-like (a dot file) has no stem to cut it from.
    expect(fileNameParts('.csv')).toEqual({ stem: ['.csv'], extension: '' });
  });
});
