/** `npm run setup:temporal`: obtains the temporal CLI (see temporal-cli.ts) and says how. */
import { ensureTemporalCli } from '../platform/temporal-cli.js';

try {
  const started = Date.now();
  const cli = await ensureTemporalCli((line) => console.error(`setup: ${line}`));
  console.error(
    `setup: temporal CLI via ${cli.route}: ${cli.path} (${cli.version}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (err) {
  console.error(`setup: ${(err as Error).message}`);
  process.exitCode = 1;
}
