/**
 * Exactly once under slowness: an agent slow to acknowledge gets one task; an answer answers the
 * question it names, once, however often it is sent; a send that already decided is not read
 * again; a turn cancelled before the agent named its task still reaches CancelTask.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2AClient, fetchAgentCard } from '../../../a2a/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { AgentRegistry } from '../../../activities/agent-registry.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import {
  answerSignal,
  answerUpdate,
  delegationStatusQuery,
  type DelegateResult,
  type DelegationStatus,
} from '../../../contract/index.js';
import { runCliProcess } from '../../helpers/cli-process.js';
import { compatRequest, registryOf, startDelegate, waitForQuestion } from '../../helpers/delegations.js';
import { startScriptedServer } from '../../helpers/scripted-http.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';

const temporal = useTemporal();
let agent: RunningAgent;

beforeAll(async () => {
  agent = await startDependencyCompatAgent({
    port: 0,
    workDelayMs: 0,
    chunkDelayMs: 5,
    bindings: ['JSONRPC', 'HTTP+JSON', 'GRPC'],
  });
});
afterAll(() => agent?.close());

/** The agent over HTTP+JSON (the default), or over gRPC only (its port allowed). */
function registryFor(binding: 'HTTP+JSON' | 'GRPC'): AgentRegistry {
  if (binding === 'HTTP+JSON') return registryOf({ compat: agent });
  const entry = { url: agent.baseUrl, bindings: ['GRPC' as const], allowOrigins: [`http://${agent.grpcAddress!}`] };
  return new AgentRegistry({ agents: { compat: entry } });
}

async function withWorker<T>(registry: AgentRegistry, fn: (taskQueue: string) => Promise<T>): Promise<T> {
  const taskQueue = uniqueTaskQueue('once');
  const worker = await temporal.worker({ taskQueue, plugins: [a2aTemporalPlugin({ registry })] });
  return worker.runUntil(fn(taskQueue));
}

describe('exactly once', () => {
  // Push mode's send (a2a.sendMessage) looks for an earlier attempt's task as poll mode's turn does (awaitEarlierSend).
  for (const binding of ['HTTP+JSON', 'GRPC'] as const)
    for (const mode of ['stream', 'poll'] as const) {
      it(`sends once to an agent that acknowledges after 3× the heartbeat timeout (${mode}, ${binding})`, async () => {
        const client = await temporal.client();
        agent.resetStats();
        const result = await withWorker(registryFor(binding), async (taskQueue) => {
          const request = compatRequest({
            mode,
            text: 'Check for Node.js 24',
            metadata: { ackDelayMs: 3_500 },
            tracking: { heartbeatTimeout: '1 second' },
          });
          return (await startDelegate(client, taskQueue, request)).result() as Promise<DelegateResult>;
        });
        expect(result.state).toBe('TASK_STATE_COMPLETED');
        expect(agent.stats.tasksCreated).toBe(1);
        expect(agent.stats.messageIds).toHaveLength(1);
        if (binding === 'GRPC')
          expect(Object.keys(agent.stats.byRoute).every((r) => r.startsWith('gRPC ') || r.includes('agent-card'))).toBe(
            true,
          );
      });
    }

  it('answers each of two questions once when 50 duplicate answers race for each', async () => {
    const client = await temporal.client();
    agent.resetStats();
    const { result, accepted, refusals } = await withWorker(registryOf({ compat: agent }), async (taskQueue) => {
      const handle = await startDelegate(
        client,
        taskQueue,
        compatRequest({ mode: 'poll', metadata: { scenario: 'second-question' } }),
      );
      const accepted: string[] = [];
      const refusals: string[] = [];
      /** 50 callers read the status (as the CLI does) and then all answer the question they read. */
      const race = async (text: string) => {
        const reads = await Promise.all(
          Array.from({ length: 50 }, () => handle.query(delegationStatusQuery) as Promise<DelegationStatus>),
        );
        await Promise.all(
          reads.map((status) =>
            handle.executeUpdate(answerUpdate, { args: [{ text, questionId: status.question?.id }] }).then(
              (receipt) => accepted.push(`${receipt.questionId}:${text}`),
              (err: Error) => refusals.push((err.cause as Error | undefined)?.message ?? err.message),
            ),
          ),
        );
      };
      const first = await waitForQuestion(handle);
      await race('Node.js 22');
      await waitForQuestion(handle, first);
      await race('pnpm');
      return { result: (await handle.result()) as DelegateResult, accepted, refusals };
    });
    expect(accepted.sort()).toEqual(['q1:Node.js 22', 'q2:pnpm']);
    expect(refusals).toHaveLength(98);
    for (const why of refusals) {
      expect(why).toMatch(
        /^Question q[12] of the delegation to compat (was already answered|no longer waits for an answer)|^workflow update was aborted by closing workflow|^workflow execution already completed/,
      );
    }
    expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 2 });
    // The agent got the request and exactly two answers.
    expect(agent.stats.messageIds).toHaveLength(3);
  });

  for (const mode of ['stream', 'poll'] as const)
    it(`gives each of two questions the answer meant for it while 50 copies of the first answer race in (${mode})`, async () => {
      const client = await temporal.client();
      agent.resetStats();
      const late =
        /^This answer repeats the one question q1 just got, and question q2 of the delegation to compat was asked \d+ s ago, so it is taken for a late duplicate of that answer; nothing was sent\. To give question q2 the same answer on purpose, name it: a2a-temporal answer <id> --question q2/;
      const { result, refusals, lateCli } = await withWorker(registryOf({ compat: agent }), async (taskQueue) => {
        const handle = await startDelegate(
          client,
          taskQueue,
          compatRequest({ mode, metadata: { scenario: 'second-question' } }),
        );
        const refusals: string[] = [];
        const update = () =>
          handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 22' }] }).then(
            () => undefined,
            (err: Error) => void refusals.push((err.cause as Error | undefined)?.message ?? err.message),
          );
        const first = await waitForQuestion(handle);
        // 50 identical answers at once, none naming its question: updates and signals.
        const racing = Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            i % 2 ? update() : handle.signal(answerSignal, { text: 'Node.js 22' }),
          ),
        );
        const second = await waitForQuestion(handle, first);
        await racing;
        // Copies that arrive after q2 was asked: updates, signals and `answer` processes that bind to q2.
        const [lateCli] = await Promise.all([
          Promise.all([1, 2].map(() => runCliProcess(['answer', handle.workflowId, 'Node.js', '22']))),
          ...Array.from({ length: 5 }, () => update()),
          ...Array.from({ length: 5 }, () => handle.signal(answerSignal, { text: 'Node.js 22' })),
        ]);
        expect((await handle.query(delegationStatusQuery)).question).toMatchObject({ id: 'q2', text: second.text });
        await handle.executeUpdate(answerUpdate, { args: [{ text: 'pnpm' }] });
        return { result: (await handle.result()) as DelegateResult, refusals, lateCli };
      });
      // Every update but the one that answered q1 (if an update won) was refused with a sentence; under
      // load the server may also reject an update the worker's task did not get to (nothing reaches history).
      expect(refusals.length).toBeGreaterThanOrEqual(29);
      for (const why of refusals)
        expect(why).toMatch(
          new RegExp(
            `${late.source}|^The delegation to compat is not waiting for input|^Workflow Update is rejected because it wasn't processed by worker`,
          ),
        );
      expect(refusals.filter((why) => late.test(why)).length).toBeGreaterThanOrEqual(5);
      for (const run of lateCli) {
        expect(run.code, run.stdout).toBe(1);
        expect(run.stderr).toMatch(new RegExp(`^error: ${late.source.slice(1)}`, 'm'));
      }
      expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 2 });
      const report = result.artifacts.flatMap((a) => a.parts.map((p) => ('text' in p ? p.text : ''))).join('');
      expect(report).toContain('- Package manager: pnpm');
      // The agent got the request and exactly two answers.
      expect(agent.stats.messageIds).toHaveLength(3);
    });

  for (const [mode, turn] of [
    ['stream', 'a2a.streamMessage'],
    ['poll', 'a2a.pollMessage'],
  ] as const)
    it(`cancels the task of a turn cancelled while the agent is still acknowledging it (${mode})`, async () => {
      const client = await temporal.client();
      agent.resetStats();
      const status = await withWorker(registryOf({ compat: agent }), async (taskQueue) => {
        const request = compatRequest({
          mode,
          text: 'Check for Node.js 24',
          metadata: { ackDelayMs: 2_000, workDelayMs: 10_000 },
        });
        const handle = await startDelegate(client, taskQueue, request);
        await waitFor(
          async () => (await handle.describe()).raw.pendingActivities?.some((a) => a.activityType?.name === turn),
          { what: 'the turn' },
        );
        await handle.cancel();
        await handle.result().catch(() => undefined);
        return (await handle.query(delegationStatusQuery)) as DelegationStatus;
      });
      expect(status.phase).toBe('canceled');
      const { card } = await fetchAgentCard(agent.baseUrl);
      const { tasks } = await createA2AClient({ card }).listTasks({ contextId: status.contextId });
      expect(agent.stats.tasksCreated).toBe(1);
      expect(tasks.map((t) => t.status.state)).toEqual(['TASK_STATE_CANCELED']);
    });

  it('does not read a task again that the send already returned finished', async () => {
    const client = await temporal.client();
    const scripted = await startScriptedServer({
      'GET /.well-known/agent-card.json': (_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            name: 'blocking',
            description: 'answers SendMessage with the finished task',
            version: '1',
            supportedInterfaces: [
              { url: `${scripted.baseUrl}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
            ],
            capabilities: {},
            defaultInputModes: ['text/plain'],
            defaultOutputModes: ['text/plain'],
            skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
          }),
        ),
      'POST /rpc': (_req, res, body) => {
        const { id, params } = JSON.parse(body) as { id: number; params: { message: { contextId: string } } };
        const task = {
          id: 'T-done',
          contextId: params.message.contextId,
          status: { state: 'TASK_STATE_COMPLETED' },
          artifacts: [{ artifactId: 'a', parts: [{ text: 'done at once' }] }],
        };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id, result: { task } }));
      },
    });
    try {
      const result = (await withWorker(registryOf({ blocking: scripted }), async (taskQueue) =>
        (await startDelegate(client, taskQueue, { agent: 'blocking', text: 'go', mode: 'poll' })).result(),
      )) as DelegateResult;
      expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', taskId: 'T-done' });
      expect(result.artifacts[0]!.parts).toEqual([{ text: 'done at once' }]);
      expect(scripted.requests).toEqual(['GET /.well-known/agent-card.json', 'POST /rpc']);
    } finally {
      await scripted.close();
    }
  });
});
