import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two cores: one fork per core; integration files share one dev server (see global-setup).
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 10_000,
        },
      },
      {
        test: {
          // The workflows against scripted activities, each file on a Temporal test server of its own.
          name: 'workflows',
          include: ['test/workflows/**/*.test.ts'],
          globalSetup: ['test/helpers/workflow-tests-setup.ts'],
          testTimeout: 10_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/helpers/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
