/**
 * An agent whose card offers only gRPC (the official SDK's gRPC service, on a port of its own that
 * the agents-file entry allows): the delegation runs end to end in every mode over gRPC alone,
 * `status` names the binding, and a worker killed in the middle of the stream is replaced by one
 * that resubscribes and finishes without a second remote task or repeated artifact text.
 */
import type { AgentsFile } from '../../../activities/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactText } from '../../../a2a/index.js';
import { AgentRegistry } from '../../../activities/agent-registry.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { trackingProgress } from '../../../client/tracking-progress.js';
import { delegationStatusQuery, type DelegateResult } from '../../../contract/index.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import type { RunningWebhookReceiver } from '../../../worker/webhook-receiver.js';
import { compatRequest, startDelegate } from '../../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';
import { spawnWorkerProcess } from '../../helpers/worker-process.js';
import { SECRET, startReceiver } from '../push/support.js';

const temporal = useTemporal();
let agent: RunningAgent;
let receiver: RunningWebhookReceiver;
let file: AgentsFile;

beforeAll(async () => {
  agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 10, bindings: ['GRPC'] });
  file = { agents: { compat: { url: agent.baseUrl, allowOrigins: [`http://${agent.grpcAddress!}`] } } };
  receiver = await startReceiver(await temporal.client());
});
afterAll(async () => {
  await agent?.close();
  await receiver?.close();
});

const request = (mode: 'stream' | 'poll' | 'push', chunkDelayMs = 10) =>
  compatRequest({
    mode,
    text: 'Check the dependencies of payment-service for Node.js 24.',
    metadata: { chunkDelayMs },
  });

/** The A2A calls the agent received, by route: gRPC ones, and any other than the card. */
function calls(): { grpc: string[]; http: string[] } {
  const routes = Object.keys(agent.stats.byRoute);
  return {
    grpc: routes.filter((r) => r.startsWith('gRPC ')),
    http: routes.filter((r) => !r.startsWith('gRPC ') && !r.includes('agent-card.json')),
  };
}

describe('an agent whose card offers only gRPC', () => {
  it('is delegated to in stream, poll and push mode over gRPC alone, and status names the binding', async () => {
    const client = await temporal.client();
    const taskQueue = uniqueTaskQueue('grpc-only');
    const worker = await temporal.worker({
      taskQueue,
      plugins: [
        a2aTemporalPlugin({ registry: new AgentRegistry(file), webhook: { publicUrl: receiver.url, secret: SECRET } }),
      ],
    });
    await worker.runUntil(async () => {
      for (const mode of ['stream', 'poll', 'push'] as const) {
        agent.resetStats();
        const handle = await startDelegate(client, taskQueue, request(mode), `${taskQueue}-${mode}`);
        const result = (await handle.result()) as DelegateResult;
        expect(result.state, mode).toBe('TASK_STATE_COMPLETED');
        expect(artifactText(result.artifacts[0]!)).toMatch(/Node\.js 24/);
        expect(await handle.query(delegationStatusQuery)).toMatchObject({ binding: 'GRPC', mode });
        expect(calls().http, `${mode}: no A2A call over HTTP`).toEqual([]);
        expect(calls().grpc, mode).toContain(mode === 'stream' ? 'gRPC SendStreamingMessage' : 'gRPC SendMessage');
        expect(agent.stats.tasksCreated, mode).toBe(1);
      }
    });
  });

  it('survives a worker killed in the middle of the stream: one remote task, no repeated text', async () => {
    const client = await temporal.client();
    const registry = new AgentRegistry(file);
    const referenceQueue = uniqueTaskQueue('grpc-reference');
    const referenceWorker = await temporal.worker({
      taskQueue: referenceQueue,
      plugins: [a2aTemporalPlugin({ registry })],
    });
    const reference = (await referenceWorker.runUntil(
      startDelegate(client, referenceQueue, request('stream')).then((h) => h.result()),
    )) as DelegateResult;

    const taskQueue = uniqueTaskQueue('grpc-crash');
    const doomed = await spawnWorkerProcess(taskQueue, file);
    agent.resetStats();
    const handle = await startDelegate(client, taskQueue, request('stream', 600));
    await waitFor(async () => ((await trackingProgress(handle))?.artifacts[0]?.parts ?? 0) >= 1, {
      what: 'the first chunk over gRPC',
    });
    await doomed.kill('SIGKILL');

    const rescuer = await temporal.worker({ taskQueue, plugins: [a2aTemporalPlugin({ registry })] });
    const result = (await rescuer.runUntil(handle.result())) as DelegateResult;
    expect(result.state).toBe('TASK_STATE_COMPLETED');
    expect(artifactText(result.artifacts[0]!)).toBe(artifactText(reference.artifacts[0]!));
    expect(result.artifacts[0]!.parts).toHaveLength(reference.artifacts[0]!.parts.length);
    expect(agent.stats.tasksCreated).toBe(1);
    expect(agent.stats.messageIds).toHaveLength(1);
    expect(calls().grpc).toContain('gRPC SubscribeToTask'); // the rescuer re-attached to the task
    expect(calls().http).toEqual([]);
  });
});
