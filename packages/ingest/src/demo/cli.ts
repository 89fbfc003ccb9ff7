import { resourceUsage } from 'node:process';
import { parseCliArgs, USAGE, type CliCommand } from './cli-args.ts';
import { generateDemo, generateLargeFile } from './generate-demo.ts';
import { errorMessage } from '@ratelens/core';

/** Demo data and benchmark files from the command line; see USAGE. */

const MB = 1024 * 1024;
const REPORT_EVERY = 64 * MB;

function progress(): (bytes: number) => void {
  let next = REPORT_EVERY;
  return (bytes) => {
    if (bytes < next) return;
    next = bytes + REPORT_EVERY;
    process.stderr.write(`  ${(bytes / MB).toFixed(0)} MB written\n`);
  };
}

async function run(command: CliCommand): Promise<string> {
  const started = performance.now();
  const seconds = (): string => ((performance.now() - started) / 1000).toFixed(1);
  const peak = (): string => (resourceUsage().maxRSS / 1024).toFixed(0);
  switch (command.kind) {
    case 'demo': {
      let current = '';
      let report = progress();
      const manifest = await generateDemo({
        ...command,
        onProgress: (file, bytes) => {
          if (file !== current) [current, report] = [file, progress()];
          report(bytes);
        },
      });
      for (const h of manifest.hospitals) {
        console.log(`${h.format.padEnd(8)} ${String(h.rates).padStart(10)} rates  ${h.path}`);
      }
      const { files, rates, bytes } = manifest.totals;
      return `${files} files, ${rates} rates, ${(bytes / MB).toFixed(1)} MB in ${seconds()} s (peak RSS ${peak()} MB)`;
    }
    case 'large': {
      const result = await generateLargeFile({ ...command, onProgress: progress() });
      return `1 file, ${result.rates} rates, ${(result.bytes / MB).toFixed(1)} MB in ${seconds()} s (peak RSS ${peak()} MB): ${result.path}`;
    }
  }
}

let command: CliCommand;
try {
  command = parseCliArgs(process.argv.slice(2));
} catch (error) {
  console.error(`${errorMessage(error)}\n${USAGE}`);
  process.exit(2);
}
console.log(await run(command));
