import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * Starts the real server as `npm start` does after its build, on a data directory emptied first
 * so that every browser-test run begins with an empty database. What the server prints also goes
 * to SERVER_LOG, where a test reads what `npm start` said about the demo data.
 */
const dataDir = process.env.DATA_DIR ?? '.data-e2e';
const logFile = process.env.SERVER_LOG ?? 'reports/e2e-server.log';
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(path.dirname(logFile), { recursive: true });
const log = createWriteStream(logFile);
const server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, DATA_DIR: dataDir },
});
server.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  log.write(chunk);
});
const stop = () => server.kill('SIGINT');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => log.end(() => process.exit(code ?? 0)));
