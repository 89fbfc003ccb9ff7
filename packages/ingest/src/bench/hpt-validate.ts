/**
 * Runs CMS's own streaming validator (@cmsgov/hpt-validator) over one file and prints one JSON
 * line: seconds, MB/s, peak RSS. Its own process, so its memory is measured alone.
 *   node --import tsx packages/ingest/src/bench/hpt-validate.ts <file>
 */
import { createReadStream, statSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('Usage: hpt-validate.ts <file>');
  process.exit(2);
}
const hpt = await import('@cmsgov/hpt-validator');
const started = performance.now();
// Without a value callback: its fastest mode, so the comparison is conservative.
const result = file.endsWith('.json')
  ? await hpt.validateJson(createReadStream(file), 'v3.0.0')
  : await hpt.validateCsv(createReadStream(file), 'v3.0.0');
const seconds = (performance.now() - started) / 1000;
const megabytes = statSync(file).size / 1e6;
console.log(
  JSON.stringify({
    tool: 'hpt-validator',
    seconds: Number(seconds.toFixed(3)),
    mbPerSecond: Number((megabytes / seconds).toFixed(1)),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    errors: result.errors.length,
  }),
);
