/** A setup step of `npm test` and `npm run test:faults`: builds Toxiproxy once (see toxiproxy.ts) and says how long it took. */
import { ensureToxiproxy, TOXIPROXY_VERSION } from './toxiproxy.js';

try {
  const started = Date.now();
  const { path, built } = await ensureToxiproxy();
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  console.error(
    `setup: Toxiproxy ${TOXIPROXY_VERSION} ${built ? `built from the Go module proxy in ${took}` : `cached (${took})`}: ${path}`,
  );
} catch (err) {
  console.error(`setup: ${(err as Error).message}`);
  process.exitCode = 1;
}
