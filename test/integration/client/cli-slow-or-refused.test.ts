/**
 * The two sentences of a CLI that gets no answer from Temporal (issue 24.5): a server behind a
 * link that delays every byte past `--connect-timeout` "did not answer within N s" (and says how
 * to wait longer); a port where nothing listens "cannot reach", at once rather than after the
 * connect timeout. The real CLI process, through a Toxiproxy link of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../platform/free-port.js';
import { useTemporal } from '../../helpers/temporal.js';
import { startToxiproxy, type RunningToxiproxy } from '../../helpers/toxiproxy.js';
import { spawnCli, type CliProcess } from '../../faults/support.js';

/** The most the refused command may take: far below its connect timeout (600 s). */
const GIVE_UP_S = 30;

const temporal = useTemporal();
let toxiproxy: RunningToxiproxy;

/** The real CLI, talking to Temporal at `address`. */
const cli = (args: string[], address: string): CliProcess => spawnCli(args, address, temporal.server.namespace);

beforeAll(async () => {
  toxiproxy = await startToxiproxy();
});

afterAll(async () => {
  await toxiproxy?.stop();
});

describe('CLI → Temporal: slow versus refused', () => {
  it('says a server that answers after the connect timeout did not answer within it, and how to wait longer', async () => {
    const link = await toxiproxy.link('cli-slow-connect', temporal.server.address);
    await link.add({ type: 'latency', attributes: { latency: 6_000, jitter: 0 } }, 'downstream');
    const status = cli(['status', 'no-such-delegation', '--connect-timeout', '2'], link.listen);
    const code = await status.exited;
    const last = status.output().trim().split('\n').at(-1) ?? '';
    await link.heal();
    expect(code).toBe(1);
    expect(last).toMatch(new RegExp(`^error: The Temporal server at ${link.listen} did not answer within 2 s: `));
    expect(last).toContain('--connect-timeout <seconds> (env A2A_TEMPORAL_CONNECT_TIMEOUT)');
  });

  it('says a port where nothing listens cannot be reached, without waiting out the connect timeout', async () => {
    const address = `127.0.0.1:${await freePort()}`;
    const started = Date.now();
    // A connect timeout far beyond the test's: only the refusal can end the command in time.
    const status = cli(['status', 'no-such-delegation', '--connect-timeout', '600'], address);
    const code = await status.exited;
    const last = status.output().trim().split('\n').at(-1) ?? '';
    expect(code).toBe(1);
    expect(last).toBe(
      `error: Cannot reach the Temporal server at ${address}. Start one with \`npx --no-install a2a-temporal server\`, or point TEMPORAL_ADDRESS at yours.`,
    );
    expect(Date.now() - started).toBeLessThan(GIVE_UP_S * 1000);
  });
});
