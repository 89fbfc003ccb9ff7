// Adds up the JSON reports of Vitest and Playwright into one closing line, "N passed, N failed".
// A report that is missing means its runner did not run (an earlier step failed): that fails too.
import { existsSync, readFileSync } from 'node:fs';

const reports = {
  vitest: 'reports/vitest.json',
  playwright: 'reports/e2e.json',
};

let passed = 0;
let failed = 0;
let skipped = 0;
let missing = 0;

if (existsSync(reports.vitest)) {
  const report = JSON.parse(readFileSync(reports.vitest, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
} else {
  console.log(`(no ${reports.vitest}: unit and integration tests did not run)`);
  missing++;
}

if (existsSync(reports.playwright)) {
  const { stats } = JSON.parse(readFileSync(reports.playwright, 'utf8'));
  passed += stats.expected;
  failed += stats.unexpected;
  skipped += stats.skipped;
} else {
  console.log(`(no ${reports.playwright}: browser tests did not run)`);
  missing++;
}

console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing > 0 ? 1 : 0);
