import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: the fault matrix (test/faults/), every link of a delegation through
 * Toxiproxy. The files share the run's dev server (global-setup.ts); the cells of a file run
 * concurrently, so the minute-long ones overlap; report.ts prints the matrix at the end.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    include: ['test/faults/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts', 'test/faults/report.ts'],
    testTimeout: 240_000,
    hookTimeout: 180_000,
  },
});
