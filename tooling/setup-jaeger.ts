/** `npm run setup:jaeger` (run by `npm run test:ui`): builds the trace viewer's Jaeger once (see jaeger.ts) and says how long it took. */
import { ensureJaeger, JAEGER_VERSION } from '../platform/jaeger.js';

try {
  const started = Date.now();
  const { path, built } = await ensureJaeger();
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  console.error(
    `setup: Jaeger ${JAEGER_VERSION} ${built ? `built from the Go module proxy in ${took}` : `cached (${took})`}: ${path}`,
  );
} catch (err) {
  console.error(`setup: ${(err as Error).message}`);
  process.exitCode = 1;
}
