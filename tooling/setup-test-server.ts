/** `npm run setup:test-server` (a step of `npm test`): obtains Temporal's time-skipping test server (see temporal-test-server.ts) and says how. */
import { ensureTestServer, TEST_SERVER_VERSION } from './temporal-test-server.js';

try {
  const started = Date.now();
  const server = await ensureTestServer((line) => console.error(`setup: ${line}`));
  console.error(
    `setup: Temporal test server ${TEST_SERVER_VERSION} via ${server.route}: ${server.path} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (err) {
  console.error(`setup: ${(err as Error).message}`);
  process.exitCode = 1;
}
