import { defineConfig } from 'vitest/config';
import { markdownTree } from './packages/web/build/markdown.ts';

/**
 * Every URL the ingest's tests read is served on 127.0.0.1, which a download refuses unless this
 * says otherwise (packages/ingest/src/read/address-guard.ts); its own test clears it.
 */
const env = { INGEST_PRIVATE_URLS: 'allow' };

export default defineConfig({
  test: {
    projects: [
      {
        // The web's content files are imported as `.md?tree` (packages/web/build/markdown.ts).
        plugins: [markdownTree()],
        test: {
          name: 'unit',
          env,
          // The web's build plugins (packages/web/build/) are tested beside them too.
          include: ['packages/**/src/**/*.test.{ts,tsx}', 'packages/web/build/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'packages/**/src/**/*.int.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          env,
          include: ['packages/**/src/**/*.int.test.ts'],
          globalSetup: ['packages/db/src/testing/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
