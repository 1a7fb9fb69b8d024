/**
 * `status` tells the truth while an agent is down (issue 24.5): the agent's link refuses
 * connections mid-delegation (Toxiproxy takes the proxy down: what a stopped agent looks like to
 * the worker), `status --json`'s `problem` says `agent-unreachable` with attempts and the last
 * error within one retry interval, its text line says so, and once the link is back the problem
 * clears and the delegation completes with its whole report. Stream and poll mode. An agent that
 * never comes back: `watch` ends with the failure's reason, not only "■ delegation failed".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { problemText, renderStatus } from '../../../client/render-status.js';
import { readStatus, type StatusView } from '../../../client/status-view.js';
import { freePort } from '../../../platform/free-port.js';
import { packageRoot } from '../../../platform/paths.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { currentDetails, registryOf } from '../../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { startToxiproxy, type FaultyLink, type RunningToxiproxy } from '../../helpers/toxiproxy.js';
import { waitFor } from '../../helpers/wait.js';
import { SILENCE_NOTICE_MS } from '../../../activities/reachability.js';
import { EARLY_END_AFTER_MS } from '../../../activities/track-task.js';
import { HEARTBEAT_S } from '../../faults/faults.js';
import { AGENT_PACE, cellRequest, settle, spawnCli, startDelegation, underWay } from '../../faults/support.js';

/** The first retry of a refused request leaves after 1 s; the heartbeat that says so comes within one throttle (0.8 × the heartbeat timeout); + 2 s for describe() on a loaded machine. */
const NOTICE_WITHIN_S = 1 + 0.8 * HEARTBEAT_S + 2;

/**
 * The UI's details learn it when the round that met the outage ends early, EARLY_END_AFTER_MS
 * after it began, at most a retry (1 s) and one silence notice after the link went down; + 3.5 s
 * for the workflow task and describe() on a loaded machine.
 */
const UI_NOTICE_WITHIN_S = 1 + SILENCE_NOTICE_MS / 1000 + EARLY_END_AFTER_MS / 1000 + 3.5;

/** Where the closing note's capture goes (ignored by git). */
const ARTIFACTS = join(packageRoot, 'test', 'artifacts');

const temporal = useTemporal();
const taskQueue = uniqueTaskQueue('faults-problem');
let toxiproxy: RunningToxiproxy;
const agents: RunningAgent[] = [];
const links = new Map<string, FaultyLink>();
let stopWorker: () => Promise<void>;

vi.setConfig({ maxConcurrency: 4 });

beforeAll(async () => {
  toxiproxy = await startToxiproxy();
  for (const mode of ['stream', 'poll', 'gone']) {
    const port = await freePort();
    const link = await toxiproxy.link(`problem-${mode}`, `127.0.0.1:${port}`);
    agents.push(await startDependencyCompatAgent({ port, publicUrl: `http://${link.listen}`, ...AGENT_PACE }));
    links.set(mode, link);
  }
  const worker = await temporal.worker({
    taskQueue,
    plugins: [a2aTemporalPlugin({ registry: registryOf({ stream: agents[0]!, poll: agents[1]!, gone: agents[2]! }) })],
  });
  const running = worker.run();
  stopWorker = async () => {
    worker.shutdown();
    await running;
  };
});

afterAll(async () => {
  await stopWorker?.();
  for (const agent of agents) await agent.close();
  await toxiproxy?.stop();
});

describe('status while the agent is down', () => {
  for (const mode of ['stream', 'poll'] as const) {
    it.concurrent(
      `${mode}: agent-unreachable with attempts and the last error, then cleared once the agent answers`,
      async () => {
        const client = await temporal.client();
        const link = links.get(mode)!;
        const handle = await startDelegation(client, taskQueue, `${taskQueue}-${mode}`, cellRequest(mode, mode));
        const read = () => readStatus({ client, namespace: temporal.server.namespace }, handle.workflowId);
        await underWay(handle, mode);
        expect((await read()).delegations[0]?.problem).toBeUndefined();

        await link.setEnabled(false);
        const down = Date.now();
        let shown: StatusView | undefined;
        await waitFor(
          async () => {
            const view = await read();
            if (view.delegations[0]?.problem?.attempts) shown = view;
            return shown !== undefined;
          },
          { what: `${mode}: status showing the problem`, timeoutMs: 60_000, intervalMs: 250 },
        );
        const noticedS = (Date.now() - down) / 1000;
        const problem = shown!.delegations[0]!.problem!;
        expect(problem.kind).toBe('agent-unreachable');
        expect(problem.attempts).toBeGreaterThanOrEqual(1);
        expect(problem.lastError).toMatch(/connection|refused|ECONNREFUSED|no answer/i);
        expect(Date.parse(problem.since)).toBeGreaterThanOrEqual(down - 1_000);
        expect(Date.parse(problem.givesUpAt!)).toBeGreaterThan(Date.parse(problem.since));
        expect(renderStatus(shown!)).toContain(`${mode}: ! ${problemText(problem).split(' (')[0]}`);
        expect(noticedS).toBeLessThan(NOTICE_WITHIN_S);
        // For the closing note: what `status` printed while the agent was down.
        mkdirSync(ARTIFACTS, { recursive: true });
        writeFileSync(join(ARTIFACTS, `status-agent-down-${mode}.txt`), `${renderStatus(shown!)}\n`);

        // The UI's current details show the same line, as the workflow learned it when the
        // tracking round ended early (without the live attempts and next try).
        const ui = await waitFor(
          async () => (await currentDetails(handle)).match(/\*\*(agent unreachable since .+)\*\*/)?.[1],
          { what: `${mode}: the UI's current details showing the problem`, timeoutMs: 60_000, intervalMs: 250 },
        );
        expect(ui).toMatch(
          new RegExp(
            `^agent unreachable since ${problem.since.slice(11, 19)}Z \\(last: .+\\); gives up at \\d\\d:\\d\\d:\\d\\dZ$`,
          ),
        );
        expect((Date.now() - down) / 1000).toBeLessThan(UI_NOTICE_WITHIN_S);

        await link.setEnabled(true);
        await waitFor(async () => (await read()).delegations[0]?.problem === undefined, {
          what: `${mode}: the problem cleared once the agent answers`,
          timeoutMs: 60_000,
          intervalMs: 250,
        });
        await waitFor(async () => !(await currentDetails(handle)).includes('unreachable'), {
          what: `${mode}: the UI's current details cleared once the agent answers`,
          timeoutMs: 60_000,
          intervalMs: 250,
        });
        const settled = await settle(handle);
        expect(settled.failure).toBeUndefined();
        expect(settled.result?.state).toBe('TASK_STATE_COMPLETED');
        expect((await read()).delegations[0]?.problem).toBeUndefined();
      },
    );
  }

  it('watch ends with the reason when the agent never comes back', async () => {
    const client = await temporal.client();
    const link = links.get('gone')!;
    const workflowId = `${taskQueue}-gone`;
    const handle = await startDelegation(
      client,
      taskQueue,
      workflowId,
      cellRequest('gone', 'stream', { tracking: { unreachableTimeout: '10 seconds' } }),
    );
    await underWay(handle, 'stream');
    await link.setEnabled(false);
    const watch = spawnCli(['watch', workflowId], temporal.server.address, temporal.server.namespace);
    await watch.exited;
    expect((await settle(handle)).failure).toBe('A2A_AGENT_UNREACHABLE');
    expect(watch.output()).toMatch(
      /^■ delegation failed: Agent "gone" did not answer for \d+ s \(last error: .+\)\. /m,
    );
  });
});
