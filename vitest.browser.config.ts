import { defineConfig } from 'vitest/config';

/**
 * Browser tests (`npm run test:ui`): headless Chromium against the dev server's Temporal Web UI.
 * Kept out of vitest.config.ts so `npm test` never needs a browser; same global setup (one dev
 * server with the Web UI on free ports, workflows bundled once).
 */
export default defineConfig({
  test: {
    name: 'browser',
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    reporters: ['default'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
