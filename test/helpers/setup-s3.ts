/** First steps of `npm test` and `npm run test:cluster`: builds the tests' S3-compatible server once (see s3-server.ts) and says how long it took. */
import { ensureVersitygw, VERSITYGW_VERSION } from './s3-server.js';

try {
  const started = Date.now();
  const { path, built } = await ensureVersitygw();
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  console.error(
    `setup: versitygw ${VERSITYGW_VERSION} (S3) ${built ? `built from the Go module proxy in ${took}` : `cached (${took})`}: ${path}`,
  );
} catch (err) {
  console.error(`setup: ${(err as Error).message}`);
  process.exitCode = 1;
}
