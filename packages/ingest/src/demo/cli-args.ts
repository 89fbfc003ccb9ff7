import { parseArgs } from 'node:util';

/** The demo CLI's options, parsed from argv; errors are thrown as messages for the user. */
export type CliCommand =
  | { kind: 'demo'; outDir: string; seed: number; scale: number }
  | { kind: 'large'; path: string; targetBytes: number; format: 'json' | 'csv-tall'; seed: number };

export const USAGE = `Usage:
  node --import tsx packages/ingest/src/demo/cli.ts --out <dir> [--seed N] [--scale N]
  node --import tsx packages/ingest/src/demo/cli.ts --large <path> --bytes 1G [--format json|csv-tall] [--seed N]`;

const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** "1G", "500M", "5MB", "1048576" → bytes (binary units). */
export function parseBytes(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([KMG]?)B?$/i.exec(text.trim());
  const unit = UNITS[match?.[2]?.toUpperCase() ?? ''];
  if (match === null || unit === undefined)
    throw new Error(`Not a size: "${text}" (try 1G or 500M)`);
  return Math.round(Number(match[1]) * unit);
}

function parsePositiveInteger(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
  return value;
}

export function parseCliArgs(argv: string[]): CliCommand {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: 'string' },
      seed: { type: 'string' },
      scale: { type: 'string' },
      large: { type: 'string' },
      bytes: { type: 'string' },
      format: { type: 'string' },
    },
  });
  const seed = parsePositiveInteger('seed', values.seed, 1);
  if (values.large !== undefined) {
    if (values.bytes === undefined) throw new Error('--large needs --bytes');
    const format = values.format ?? 'json';
    if (format !== 'json' && format !== 'csv-tall') {
      throw new Error('--format must be json or csv-tall');
    }
    return {
      kind: 'large',
      path: values.large,
      targetBytes: parseBytes(values.bytes),
      format,
      seed,
    };
  }
  if (values.out === undefined) throw new Error('--out <dir> or --large <path> is required');
  const scale = parsePositiveInteger('scale', values.scale, 1);
  if (scale < 1) throw new Error('--scale must be at least 1');
  return { kind: 'demo', outDir: values.out, seed, scale };
}
