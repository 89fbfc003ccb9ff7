import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * Starts the real server as `npm start` does after its build, on a data directory emptied first
 * so that every browser-test run begins with an empty database.
 */
const dataDir = process.env.DATA_DIR ?? '.data-e2e';
rmSync(dataDir, { recursive: true, force: true });
const server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, DATA_DIR: dataDir },
});
const stop = () => server.kill('SIGINT');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => process.exit(code ?? 0));
