import { describe, expect, it } from 'vitest';
import { writeTestFile } from '../testing/test-file.ts';
import { parseNadac } from './nadac.ts';

const csvFile = (name: string, content: string) => writeTestFile(`${name}.csv`, content);

// The column names and order of the data.medicaid.gov download.
const PUBLISHED_HEADER =
  'NDC Description,NDC,NADAC_Per_Unit,Effective_Date,Pricing_Unit,Pharmacy_Type_Indicator,OTC,Explanation_Code,Classification_for_Rate_Setting,Corresponding_Generic_Drug_NADAC_Per_Unit,Corresponding_Generic_Drug_Effective_Date,As of Date';

describe('parseNadac', () => {
  it('reads the published header names and US dates', async () => {
    const path = await csvFile(
      'nadac',
      `${PUBLISHED_HEADER}\n` +
        'ATORVASTATIN 40 MG TABLET,00378212177,0.03123,09/17/2025,EA,C/I,N,"1, 5",G,,,09/24/2025\n' +
        'LIPITOR 40 MG TABLET,71015082390,12.53441,01/01/2025,EA,C/I,N,4,B,0.03123,09/17/2025,09/24/2025\n',
    );
    expect(await parseNadac(path)).toEqual([
      {
        ndc: '00378212177',
        ndcDescription: 'ATORVASTATIN 40 MG TABLET',
        nadacPerUnit: 0.03123,
        effectiveDate: '2025-09-17',
        pricingUnit: 'EA',
        pharmacyTypeIndicator: 'C/I',
        otc: false,
        explanationCodes: ['1', '5'],
        classificationForRateSetting: 'G',
        correspondingGenericDrugNadacPerUnit: null,
        correspondingGenericDrugEffectiveDate: null,
        asOfDate: '2025-09-24',
      },
      {
        ndc: '71015082390',
        ndcDescription: 'LIPITOR 40 MG TABLET',
        nadacPerUnit: 12.53441,
        effectiveDate: '2025-01-01',
        pricingUnit: 'EA',
        pharmacyTypeIndicator: 'C/I',
        otc: false,
        explanationCodes: ['4'],
        classificationForRateSetting: 'B',
        correspondingGenericDrugNadacPerUnit: 0.03123,
        correspondingGenericDrugEffectiveDate: '2025-09-17',
        asOfDate: '2025-09-24',
      },
    ]);
  });

  it('accepts snake_case headers in another order, ISO dates and an NDC that lost its zeros', async () => {
    const path = await csvFile(
      'nadac-api',
      'ndc,ndc_description,nadac_per_unit,effective_date,pricing_unit,pharmacy_type_indicator,otc,explanation_code,classification_for_rate_setting,corresponding_generic_drug_nadac_per_unit,corresponding_generic_drug_effective_date,as_of_date\n' +
        '378212177,ATORVASTATIN 40 MG TABLET,0.03123,2025-09-17T00:00:00.000,ea,c/i,Y,1,G,,,2025-09-24T00:00:00.000\n',
    );
    const [price] = await parseNadac(path);
    expect(price).toMatchObject({
      ndc: '00378212177',
      effectiveDate: '2025-09-17',
      otc: true,
      pricingUnit: 'EA',
    });
  });

  it('names the missing column of a wrong file', async () => {
    const path = await csvFile('not-nadac', 'code,kind,long,short\nA1,modifier,x,x\n');
    await expect(parseNadac(path)).rejects.toThrow(/not-nadac\.csv: expected a NADAC column "ndc"/);
  });

  it('names the line of a bad price', async () => {
    const path = await csvFile(
      'nadac-bad',
      `${PUBLISHED_HEADER}\nX,00378212177,abc,09/17/2025,EA,C/I,N,,G,,,09/24/2025\n`,
    );
    await expect(parseNadac(path)).rejects.toThrow(/expected a number at line 2; found abc/);
  });

  it('refuses a file with its header only, rather than loading no price', async () => {
    const path = await csvFile('nadac-header', `${PUBLISHED_HEADER}\n`);
    await expect(parseNadac(path)).rejects.toThrow(
      /expected price rows below the header; found none$/,
    );
  });
});
