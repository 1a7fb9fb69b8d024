import { describe, expect, it } from 'vitest';
import { isServing } from '../../../platform/dev-server.js';
import { runCliProcess } from '../../helpers/cli-process.js';

describe('npm run demo', () => {
  it('runs a release of payment-service end to end without a terminal, and prints the sorted report and the UI link', async () => {
    const run = await runCliProcess(['demo', '--answer', 'Node.js 24', '--approve']);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toMatch(/^Using the Temporal server at /m);
    expect(run.stdout).toMatch(
      /^\? compat asks \(task \S+\):\n {2}Which Node\.js version should payment-service target\?/m,
    );
    expect(run.stdout).toMatch(/^ {2}✓ answered: Node\.js 24$/m);
    expect(run.stdout).toMatch(/^Release report: payment-service 1\.4\.0 → 2\.0\.0\n═+$/m); // rendered, plain off a TTY
    expect(run.stdout).toMatch(
      /^Fix suggestions by risk: node-sass \(high\), sharp \(high\), sqlite3 \(high\),\s+bcrypt \(medium\)/m,
    );
    expect(run.stdout).toMatch(/^Outcome: approved/m);
    expect(run.stdout).toMatch(
      /^UI: http:\/\/127\.0\.0\.1:\d+\/namespaces\/default\/workflows\/release-payment-service-2\.0\.0-[0-9a-f]{8}$/m,
    );
  });

  it('starts the embedded server itself when none runs, and stops it at the end', async () => {
    const run = await runCliProcess(
      ['demo', '--answer', 'Node.js 22', '--approve', '--port', '0', '--ui-port', '0', '--in-memory'],
      { TEMPORAL_ADDRESS: '' },
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const server = /^Embedded Temporal server at (127\.0\.0\.1:\d+), Web UI (http:\S+)$/m.exec(run.stdout);
    expect(server, run.stdout).not.toBeNull();
    expect(run.stdout).toMatch(/^Outcome: approved/m);
    expect(await isServing(server![1]!)).toBe(false);
    // The embedded UI was pointed at a codec server of the run (blob store payloads, files); it stopped too.
    const codec = /^Codec server for the UI at (http:\/\/127\.0\.0\.1:\d+)$/m.exec(run.stdout);
    expect(codec, run.stdout).not.toBeNull();
    await expect(fetch(`${codec![1]}/healthz`)).rejects.toThrow();
  });
});
