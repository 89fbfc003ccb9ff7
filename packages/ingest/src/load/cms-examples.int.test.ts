import { readFile } from 'node:fs/promises';
import { createTestDatabase } from '@ratelens/db/testing/database';
import { describe, expect, onTestFinished } from 'vitest';
import {
  csvFileRates,
  expectSameJsonRates,
  expectSameRates,
  storedRates,
} from '../testing/file-rates.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { ingestFile } from './ingest-file.ts';
import { loadStates } from './reference-loader.ts';

// Every CMS example is the same hospital, West Mercy Hospital, so each is loaded into a database
// of its own: in one database each file would replace the one before.
const EXAMPLES = [
  // file, rates (charges' payer entries, modifier rows of a CSV file included), modifier entries
  // of a JSON file; counted by hand in each file.
  ['v3_json_format_example.json', 39, 6],
  ['V2.0.0_JSON_Format_Example.json', 25, 6],
  ['V3.0.0_Wide_CSV_Format_Example.csv', 45, 0],
  // 33 written: rows 4–6 each repeat one payer's rate of the hip replacement (read once).
  ['V2.0.0_Wide_CSV_Format_Example.csv', 31, 0],
  ['V3.0.0_Tall_CSV_Format_Example.csv', 45, 0],
  ['V2.0.0_Tall_CSV_Format_Example.csv', 31, 0],
] as const;

describe('every rate of each CMS example, against the file read on its own', () => {
  for (const [name, count, modifierEntries] of EXAMPLES) {
    itWithDataFile(`${name}: all ${count} rates`, `cms-hpt-examples/${name}`, async (file) => {
      const database = await createTestDatabase();
      onTestFinished(() => database.drop());
      await loadStates(database.connection.pool);
      const result = await ingestFile(database.connection, file);
      expect(result).toMatchObject({ status: 'loaded', hospital: 'West Mercy Hospital' });

      const stored = await storedRates(database.connection.pool, 'West Mercy Hospital');
      if (name.endsWith('.json')) {
        // A modifier's payer entries are stored as rates of an item without codes.
        const read = expectSameJsonRates(await readFile(file, 'utf8'), stored);
        expect(read.modifierEntries).toBe(modifierEntries);
        expect(result.rates).toBe(count);
        expect(read.rates).toHaveLength(count);
      } else {
        const rates = csvFileRates(await readFile(file));
        expectSameRates(rates, stored);
        expect(rates).toHaveLength(count);
      }
    });
  }
});
