/**
 * `npm run setup:peers` (and the first step of `npm test`): installs the test peers on other A2A
 * SDKs (see peer-toolchains.ts) and says how. A missing toolchain is one sentence and no error;
 * a failed install is an error.
 */
import { ensurePeerToolchain, type PeerToolchainName } from './peer-toolchains.js';

const started = Date.now();
const outcomes = await Promise.allSettled(
  (['python', 'go'] as PeerToolchainName[]).map((name) =>
    ensurePeerToolchain(name, (line) => console.error(`setup: ${line}`)),
  ),
);
for (const outcome of outcomes) {
  if (outcome.status === 'rejected') {
    console.error(`setup: ${(outcome.reason as Error).message}`);
    process.exitCode = 1;
    continue;
  }
  const peer = outcome.value;
  console.error(
    peer.ready
      ? `setup: ${peer.peer} peer via ${peer.route}: ${peer.launch.command} (${peer.detail}) in ${peer.seconds.toFixed(1)} s`
      : `setup: ${peer.reason}`,
  );
}
console.error(`setup: peers ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
