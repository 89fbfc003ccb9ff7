import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/** Debian's Chromium (`apt-get install -y chromium`); Playwright never downloads a browser here. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  throw new Error(
    `Browser tests need Chromium at ${CHROMIUM}. Install it with: apt-get install -y chromium (or set CHROMIUM_PATH).`,
  );
}

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;
/** Emptied at every start; the admin test runs `npm run admin:create` against it. */
export const E2E_DATA_DIR = '.data-e2e';
/** What the server printed (e2e/serve.ts writes it), for the test of `npm start`'s words. */
export const E2E_SERVER_LOG = 'reports/e2e-server.log';

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'reports/e2e.json' }]] : 'list',
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // A fresh embedded database for every run, the built web app, and the outbox mail driver.
    command: 'node --import tsx e2e/serve.ts',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR: E2E_DATA_DIR,
      SERVER_LOG: E2E_SERVER_LOG,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '600',
      PUBLIC_URL: BASE_URL,
      // The browser tests' files are served on this machine (read/address-guard.ts).
      INGEST_PRIVATE_URLS: 'allow',
    },
  },
});
