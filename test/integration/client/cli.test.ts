import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_MANIFEST_PATH, startSampleAgents, type SampleAgents } from '../../../agents/index.js';
import type { StatusView } from '../../../client/status-view.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { runCliProcess, SAMPLE_RELEASE_START } from '../../helpers/cli-process.js';
import { registryOf } from '../../helpers/delegations.js';
import { releaseStatus, waitForPhase, waitForQuestions } from '../../helpers/releases.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';
import { cliOutput } from '../hostile/support.js';

const temporal = useTemporal();
const taskQueue = uniqueTaskQueue('cli');
let samples: SampleAgents;
let worker: Worker;
let running: Promise<void>;
let env: Record<string, string>;

beforeAll(async () => {
  samples = await startSampleAgents({ workDelayMs: 0, chunkDelayMs: 5 });
  const agentsFile = join(mkdtempSync(join(tmpdir(), 'a2a-cli-')), 'agents.json');
  writeFileSync(
    agentsFile,
    JSON.stringify({
      agents: Object.fromEntries(Object.entries(samples.agents).map(([n, a]) => [n, { url: a.baseUrl }])),
    }),
  );
  env = { A2A_TASK_QUEUE: taskQueue, A2A_AGENTS_FILE: agentsFile };
  worker = await temporal.worker({ taskQueue, plugins: [a2aTemporalPlugin({ registry: registryOf(samples.agents) })] });
  running = worker.run();
});
afterAll(async () => {
  worker?.shutdown();
  await running;
  await samples?.close();
});

const cli = (...args: string[]) => runCliProcess(args, env);

describe('the a2a-temporal CLI', () => {
  it('starts a release, answers, lists it as waiting, approves it and shows the report', async () => {
    const started = await cli(...SAMPLE_RELEASE_START, '--json');
    expect(started.code, started.stderr).toBe(0);
    const { workflowId, uiUrl } = JSON.parse(started.stdout) as { workflowId: string; uiUrl: string };
    expect(workflowId).toMatch(/^release-payment-service-2\.0\.0-[0-9a-f]{8}$/);
    expect(uiUrl).toBe(`${temporal.server.uiUrl}/namespaces/default/workflows/${workflowId}`);

    const client = await temporal.client();
    const handle = client.workflow.getHandle(workflowId);
    const [question] = await waitForQuestions(handle);
    const status = await cli('status', workflowId, '--json');
    expect(status.code, status.stderr).toBe(0);
    const view = JSON.parse(status.stdout) as StatusView;
    expect(view).toMatchObject({ workflowId, kind: 'release', status: 'RUNNING', phase: 'waiting-for-input' });
    const compat = view.delegations.find((d) => d.label === 'compat')!;
    expect(compat).toMatchObject({
      workflowId: `${workflowId}/compat`,
      agent: 'compat',
      taskId: question!.taskId,
      question: { text: question!.text },
    });

    const answered = await cli('answer', workflowId, 'Node.js', '24');
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toMatch(
      new RegExp(`^Answered question q1 \\("[^\\n]*"\\): sent to compat \\(task ${question!.taskId}\\)`),
    );
    const again = await cli('answer', workflowId, 'Node.js 22');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^error: Release \S+ has no question waiting for an answer \(phase: \S+\); nothing was sent\.$/m,
    );

    await waitForPhase(handle, 'awaiting-approval');
    const waiting = await waitFor(
      async () => {
        const listed = await cli('list', '--waiting', '--json');
        return (JSON.parse(listed.stdout) as Array<{ workflowId: string }>).some((w) => w.workflowId === workflowId)
          ? listed
          : undefined;
      },
      { what: 'the release in list --waiting', intervalMs: 300 },
    );
    expect(waiting.code).toBe(0);

    const approved = await cli('approve', workflowId, '--by', 'ana', '--reason', 'risks understood');
    expect(approved.stdout).toMatch(/approved by ana: risks understood/);
    await handle.result();
    const final = await cli('status', workflowId);
    expect(final.stdout).toMatch(/^Status: COMPLETED · phase: approved$/m);
    expect(final.stdout).toMatch(/^Release report: payment-service 1\.4\.0 → 2\.0\.0\n═+$/m); // rendered, plain off a TTY
    expect(final.stdout).toMatch(/^Approved by ana: risks understood$/m);
    expect((await releaseStatus(handle)).outcome).toBe('approved');
  });

  it('follows a one-off delegation with watch --json and cancels another one', async () => {
    const done = await cli(
      'delegate',
      '--agent',
      'compat',
      '--mode',
      'stream',
      '--data',
      SAMPLE_MANIFEST_PATH,
      '--json',
      'Check these dependencies for Node.js 24',
    );
    expect(done.code, done.stderr).toBe(0);
    const { workflowId } = JSON.parse(done.stdout) as { workflowId: string };
    const watched = await cli('watch', workflowId, '--json');
    expect(watched.code, watched.stderr).toBe(0);
    const events = watched.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; text?: string; status?: string });
    expect(
      events
        .filter((e) => e.type === 'artifact')
        .map((e) => e.text)
        .join(''),
    ).toMatch(/^# Compatibility report: payment-service/);
    expect(events.at(-1)).toMatchObject({ type: 'end', status: 'COMPLETED' });

    const parked = await cli(
      'delegate',
      '--agent',
      'compat',
      '--data',
      SAMPLE_MANIFEST_PATH,
      '--json',
      'Check these dependencies',
    );
    const parkedId = (JSON.parse(parked.stdout) as { workflowId: string }).workflowId;
    const client = await temporal.client();
    await waitFor(async () => (await client.workflow.getHandle(parkedId).describe()).historyLength > 10, {
      what: 'the delegation to run',
    });
    const cancelled = await cli('cancel', parkedId);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toBe(`Delegation ${parkedId}: cancelled.\n`);
  });

  it('cancel returns within --wait when nothing confirms the cancel, and says so', async () => {
    // No worker polls this queue: the cancel is requested and recorded, and nothing will confirm it.
    const client = await temporal.client();
    const handle = await client.workflow.start('delegate', {
      taskQueue: `nobody-${process.pid}`,
      workflowId: `cancel-unconfirmed-${process.pid}`,
      args: [{ agent: 'compat', text: 'Check these dependencies' }],
    });
    const { workflowId } = handle;
    try {
      // In this process (the CLI's own runCli): what is timed is the command, not a process start.
      const began = performance.now();
      const cancelled = await cliOutput({ temporal }, ['cancel', workflowId, '--wait', '1s']);
      const waitedMs = performance.now() - began;
      expect(cancelled.output).toBe(
        `Delegation ${workflowId}: cancel requested; the agent has not confirmed yet. Follow it: a2a-temporal status ${workflowId}\n`,
      );
      expect(waitedMs, 'the 1 s wait and a few requests').toBeLessThan(6_000);
      const again = await cliOutput({ temporal }, ['cancel', workflowId, '--wait', '0', '--json']);
      expect(JSON.parse(again.output)).toEqual({ workflowId, status: 'RUNNING', cancelRequested: true });
    } finally {
      await handle.terminate('test cleanup');
    }
  });

  it('says what went wrong and what to do, with exit code 1 for failures and 2 for usage', async () => {
    const unknown = await cli('status', 'no-such-release');
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      'error: No workflow "no-such-release" in namespace default; `a2a-temporal list` shows the ones there are.\n',
    ]);

    const noServer = await runCliProcess(['list'], { ...env, TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(noServer.code).toBe(1);
    expect(noServer.stderr).toMatch(
      /^error: Cannot reach the Temporal server at 127\.0\.0\.1:1\. Start one with `npx --no-install a2a-temporal server`/,
    );

    const missing = await cli(
      'release',
      'start',
      '--service',
      'payment-service',
      '--from',
      '1.4.0',
      '--to',
      '2.0.0',
      '--manifest',
      '/nope.json',
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^error: Cannot read the manifest \/nope\.json: ENOENT\. Give its path with --manifest\.$/m,
    );

    const typo = await cli('delegate', '--agent', 'compta', 'hello');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/Agent "compta" is not in .* \(it has: compat, changelog, license\)/);

    const rejectWithoutReason = await cli('reject', 'anything');
    expect(rejectWithoutReason.code).toBe(2);

    const emptyRef = await cli('delegate', '--agent', 'compat', '--ref', '', 'Sort the fix suggestions by risk');
    expect(emptyRef.code).toBe(2);
    expect(emptyRef.stderr).toMatch(/^error: --ref needs an id; got an empty one\.$/m);

    const badDuration = await cli('delegate', '--agent', 'compat', '--input-timeout', 'half an hour', 'hello');
    expect(badDuration.code).toBe(2);
    expect(badDuration.stderr).toMatch(/--input-timeout must be a positive duration such as "30 seconds"/);
  });
});
