import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster` (test/cluster/run.ts) runs these two projects against the production
 * Temporal server on PostgreSQL it starts; global-setup.ts reaches it through A2A_TEST_TEMPORAL_ADDRESS.
 * Left out of `integration`: the files that start a Temporal server of their own (the demo's
 * embedded server, the `server` command, obtaining the CLI, continue-as-new on a server with a
 * lowered limit, the README's examples, which run the `server` command and the demo).
 */
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: [
            'test/integration/client/demo.test.ts',
            'test/integration/platform/server-command.test.ts',
            'test/integration/platform/temporal-cli.test.ts',
            'test/integration/push/push-continue-as-new.test.ts',
            'test/integration/readme/readme-examples.test.ts',
          ],
          globalSetup: ['test/helpers/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'cluster',
          include: ['test/cluster/**/*.test.ts'],
          globalSetup: ['test/helpers/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
