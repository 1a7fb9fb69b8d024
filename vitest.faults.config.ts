import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: the fault matrix (test/faults/), every link of a delegation through
 * Toxiproxy. The files share the run's dev server (global-setup.ts); the cells of a file run
 * concurrently, so the long windows overlap; report.ts prints the matrix at the end. Three groups,
 * one after the other, so that no timing bound is measured beside another file's CPU load where it
 * matters: the worker → agent file first and alone (108 cells and their agents at once on one
 * worker process), then the other links and the push flood two files at a time, then load while
 * faults happen alone (it bounds its own event loop's delay).
 */
const shared = { pool: 'forks', testTimeout: 240_000, hookTimeout: 180_000 } as const;

export default defineConfig({
  test: {
    reporters: ['default'],
    globalSetup: ['test/helpers/global-setup.ts', 'test/faults/report.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'faults-agent-link',
          include: ['test/faults/agent-link.test.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'faults',
          include: ['test/faults/**/*.test.ts'],
          exclude: ['test/faults/agent-link.test.ts', 'test/faults/load.test.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...shared,
          name: 'faults-load',
          include: ['test/faults/load.test.ts'],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
