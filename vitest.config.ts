import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/**/src/**/*.test.{ts,tsx}'],
          exclude: ['**/node_modules/**', 'packages/**/src/**/*.int.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['packages/**/src/**/*.int.test.ts'],
          globalSetup: ['packages/db/src/testing/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
