/**
 * One trace per release, read from a real OTLP receiver: `a2a-temporal release start` (a CLI
 * process) → the release workflow → each delegation → each activity → each A2A request → the
 * agent's side of the call, with the input wait and (in push mode) the deliveries linked back.
 * The worker is a real worker process exporting with the Node SDK from OTEL_* variables; the
 * agents run here, exporting through this process's SDK. Stream, poll and push run side by side.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChangelogAgent, startDependencyCompatAgent, startLicenseAgent } from '../../../agents/index.js';
import type { RunningAgent } from '../../../agents/index.js';
import { freePort } from '../../../platform/free-port.js';
import { tracingClientOptions } from '../../../telemetry/client-interceptors.js';
import { startTracing, stopTracing } from '../../../telemetry/tracing.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { approveUpdate, releaseAnswerUpdate, type ReleaseResult } from '../../../contract/index.js';
import { SORT_REQUEST } from '../../../workflows/release/release.js';
import { SAMPLE_RELEASE_START, runCliProcess } from '../../helpers/cli-process.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../helpers/otlp-receiver.js';
import { waitForPhase, waitForQuestions } from '../../helpers/releases.js';
import { temporalServer, uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { spawnWorkerProcess, type WorkerProcess } from '../../helpers/worker-process.js';
import { renderTree, spanTree } from '../../helpers/span-tree.js';

const TOKEN = `compat-token-${randomUUID()}`;
const SECRET = `webhook-secret-${randomUUID()}`;
const ANSWER = `Node.js 24 (${randomUUID().slice(0, 8)})`;
const temporal = useTemporal();
let receiver: OtlpReceiver;
let agents: Record<'compat' | 'changelog' | 'license', RunningAgent>;
let worker: WorkerProcess;
let taskQueue: string;
let agentsFile: string;
let client: Client;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' };
  Object.assign(process.env, otel);
  startTracing('a2a-temporal-agents');
  // Tasks that take a moment: push mode's deliveries then wake its delegations (an agent that
  // answers at once has decided by the read that follows the send, and needs no delivery).
  const delays = { port: 0, workDelayMs: 300, chunkDelayMs: 5 };
  agents = {
    compat: await startDependencyCompatAgent({ ...delays, bearerToken: TOKEN }),
    changelog: await startChangelogAgent(delays),
    license: await startLicenseAgent(delays),
  };
  const file = {
    agents: {
      compat: { url: agents.compat.baseUrl, auth: { type: 'bearer' as const, tokenEnv: 'TRACE_TEST_COMPAT_TOKEN' } },
      changelog: { url: agents.changelog.baseUrl },
      license: { url: agents.license.baseUrl },
    },
  };
  agentsFile = join(tmpdir(), `a2a-trace-agents-${randomUUID()}.json`);
  writeFileSync(agentsFile, JSON.stringify(file));
  taskQueue = uniqueTaskQueue('trace');
  const webhookPort = await freePort();
  worker = await spawnWorkerProcess(
    taskQueue,
    file,
    {
      ...otel,
      TRACE_TEST_COMPAT_TOKEN: TOKEN,
      A2A_WEBHOOK_URL: `http://127.0.0.1:${webhookPort}`,
      A2A_WEBHOOK_SECRET: SECRET,
    },
    ['--webhook-port', String(webhookPort)],
  );
  const base = await temporal.client();
  client = new Client({ connection: base.connection, namespace: base.options.namespace, ...tracingClientOptions() });
});

afterAll(async () => {
  await worker?.kill('SIGTERM');
  await stopTracing();
  await Promise.all(Object.values(agents ?? {}).map((a) => a.close()));
  await receiver?.close();
});

/** Starts a release with the real CLI (traced by its own SDK), answers as alice, approves; returns its id and result. */
async function runRelease(mode: 'stream' | 'poll' | 'push'): Promise<{ id: string; result: ReleaseResult }> {
  const id = `release-trace-${mode}-${randomUUID().slice(0, 8)}`;
  const started = await runCliProcess(
    [...SAMPLE_RELEASE_START, '--mode', mode, '--task-queue', taskQueue, '--id', id, '--agents-file', agentsFile],
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
  );
  expect(started.code, started.stderr).toBe(0);
  const handle = client.workflow.getHandle(id);
  const [question] = await waitForQuestions(handle);
  await handle.executeUpdate(releaseAnswerUpdate, { args: [{ text: ANSWER, taskId: question!.taskId, by: 'alice' }] });
  await waitForPhase(handle, 'awaiting-approval');
  await handle.executeUpdate(approveUpdate, { args: [{ by: 'alice' }] });
  return { id, result: (await handle.result()) as ReleaseResult };
}

const named = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);
const parentOf = (spans: ReceivedSpan[], span: ReceivedSpan) => spans.find((s) => s.spanId === span.parentSpanId);
const childrenOf = (spans: ReceivedSpan[], span: ReceivedSpan) => spans.filter((s) => s.parentSpanId === span.spanId);

/**
 * What is still missing before every process has exported its part (the workflows, each activity
 * under its start, each request's server side), or undefined when nothing is.
 */
function missing(trace: ReceivedSpan[]): string | undefined {
  const workflows = `${named(trace, 'RunWorkflow:release').length} release and ${named(trace, 'RunWorkflow:delegate').length} delegate workflow spans (${named(
    trace,
    'RunWorkflow:delegate',
  )
    .map((s) => `${String(s.attributes.workflowId)} ${s.spanId}`)
    .join(', ')})`;
  if (named(trace, 'RunWorkflow:release').length !== 1 || named(trace, 'RunWorkflow:delegate').length !== 4)
    return workflows;
  const unrun = trace.filter(
    (s) => s.name.startsWith('StartActivity:') && !childrenOf(trace, s).some((c) => c.name.startsWith('RunActivity:')),
  );
  const unserved = trace.filter((s) => s.name.startsWith('A2A ') && !childrenOf(trace, s).some((c) => c.kind === 2));
  const gaps = [
    ...unrun.map((s) => `${s.name} without its RunActivity`),
    ...unserved.map((s) => `${s.name} (${s.attributes['a2a.agent']}) without the agent's span`),
  ];
  return gaps.length > 0 ? gaps.join('; ') : undefined;
}

describe('a traced release', () => {
  it('is one trace from `release start` through delegations, activities and A2A requests into the agents, in stream, poll and push mode', async () => {
    const runs = await Promise.all(
      (['stream', 'poll', 'push'] as const).map(async (mode) => ({ mode, ...(await runRelease(mode)) })),
    );

    for (const { mode, id, result } of runs) {
      expect(result.outcome, mode).toBe('approved');
      // The root: the CLI's StartWorkflow span; the release's spans are all exported once its workflow span is in.
      const root = await receiver.waitFor(
        (spans) => spans.find((s) => s.name === 'StartWorkflow:release' && s.attributes.temporalWorkflowId === id),
        `the root span of ${id}`,
      );
      expect(root.parentSpanId).toBe('');
      expect(root.resource['service.name']).toBe('a2a-temporal-cli');
      let gap: string | undefined;
      const trace = await receiver
        .waitFor((spans) => {
          const t = spans.filter((s) => s.traceId === root.traceId);
          gap = missing(t);
          return gap === undefined ? t : undefined;
        }, `all spans of ${id}`)
        .catch((err: Error) => {
          throw new Error(`${err.message}; still missing: ${gap}`);
        });

      const release = named(trace, 'RunWorkflow:release')[0]!;
      expect(release.parentSpanId).toBe(root.spanId);
      for (const child of named(trace, 'RunWorkflow:delegate')) {
        expect(parentOf(trace, child)?.name, mode).toBe('StartChildWorkflow:delegate');
        expect(parentOf(trace, parentOf(trace, child)!)?.spanId).toBe(release.spanId);
      }

      // Every A2A request sits under an activity, and the agent's side of it under the request.
      const requests = trace.filter((s) => s.name.startsWith('A2A '));
      // At least one send per delegation and the answer's (card reads go to whichever release came first: the worker caches cards).
      expect(requests.length, mode).toBeGreaterThanOrEqual(5);
      for (const request of requests) {
        expect(parentOf(trace, request)?.name, `${mode}: ${request.name}`).toMatch(/^RunActivity:/);
        expect(request.attributes['http.response.status_code'], request.name).toBeGreaterThanOrEqual(200);
        expect(request.attributes['http.response.status_code'], request.name).toBeLessThan(300);
        expect(request.attributes).toMatchObject({
          'http.request.method': expect.any(String),
          'url.full': expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
        });
      }
      // The card's GET has no interface yet; every other request names its agent, binding and version.
      for (const request of requests.filter((r) => r.name !== 'A2A GetAgentCard')) {
        expect(request.attributes).toMatchObject({
          'a2a.binding': expect.stringMatching(/^(JSONRPC|HTTP\+JSON)$/),
          'a2a.protocol_version': '1.0',
        });
        expect(['compat', 'changelog', 'license']).toContain(request.attributes['a2a.agent']);
      }
      const served = trace.filter((s) => s.resource['service.name'] === 'a2a-temporal-agents' && s.kind === 2);
      expect(served.length, mode).toBeGreaterThanOrEqual(requests.filter((r) => r.name !== 'A2A GetAgentCard').length);
      for (const span of served) expect(parentOf(trace, span)?.name, mode).toMatch(/^A2A /);

      // The compat delegation: its first send names the task, the question waits for alice's answer.
      const compat = named(trace, 'RunWorkflow:delegate').find((s) => s.attributes.workflowId === `${id}/compat`)!;
      const [wait] = named(trace, 'a2a input-required');
      expect(wait, mode).toBeDefined();
      expect(wait!.parentSpanId).toBe(compat.spanId);
      expect(wait!.attributes).toMatchObject({
        'a2a.agent': 'compat',
        'a2a.round': 1,
        'a2a.input.outcome': 'answered',
        'a2a.answer.by': 'alice',
      });
      expect(wait!.attributes['a2a.task_id']).toEqual(expect.any(String));
      const send = requests.find((r) => r.attributes['a2a.agent'] === 'compat' && /Send/.test(r.name))!;
      expect(send.attributes['a2a.task_id']).toBe(wait!.attributes['a2a.task_id']);
      expect(send.attributes['a2a.context_id']).toEqual(expect.any(String));

      if (mode === 'push') {
        // Deliveries start traces of their own, linked to the delegation's.
        const deliveries = await receiver.waitFor((spans) => {
          const d = spans.filter(
            (s) => s.name === 'a2a push delivery' && s.links.some((l) => l.traceId === root.traceId),
          );
          return d.length > 0 ? d : undefined;
        }, 'push deliveries linked to the release');
        expect(deliveries.some((d) => d.attributes['a2a.push.outcome'] === 'signaled')).toBe(true);
        const signaled = deliveries.find((d) => d.attributes['a2a.push.outcome'] === 'signaled')!;
        const handled = receiver.spans.filter(
          (s) => s.traceId === signaled.traceId && s.name === 'HandleSignal:taskUpdated',
        );
        expect(handled.length).toBeGreaterThan(0);
      }
      if (mode === 'stream') console.log(`span tree of ${id} (stream):\n${renderTree(spanTree(trace))}`);
    }

    // Traced runs replay without a determinism error (their workflow spans are made again, with the same ids).
    const histories = await Promise.all(
      runs
        .flatMap(({ id }) => [id, `${id}/compat`])
        .map(async (workflowId) => ({
          workflowId,
          history: await client.workflow.getHandle(workflowId).fetchHistory(),
        })),
    );
    for await (const replay of Worker.runReplayHistories(
      {
        workflowBundle: { codePath: temporalServer().workflowBundlePath },
        // The plugin gives a replayer the sink workflow spans are handed to (they are never exported in a replay).
        plugins: [a2aTemporalPlugin({ telemetry: false })],
      },
      histories,
    )) {
      expect(replay.error, replay.workflowId).toBeUndefined();
    }

    // Nothing secret, no message text, no artifact content in anything exported.
    const wire = Buffer.concat(receiver.rawBodies).toString('latin1');
    const report = runs[0]!.result.report!;
    for (const secret of [
      TOKEN,
      SECRET,
      ANSWER,
      SORT_REQUEST,
      'Which Node.js version',
      report.analysis.summary.slice(0, 40),
      report.dependencies[0]!.reason ?? report.markdown.slice(0, 40),
    ]) {
      expect(wire.includes(secret), `"${secret}" reached the exporter`).toBe(false);
    }
    for (const span of receiver.spans) {
      expect(span.status.message, span.name).toBe('');
      for (const event of span.events)
        expect(Object.keys(event.attributes), span.name).not.toContain('exception.message');
      expect(span.resource['process.command_args'], span.name).toBeUndefined();
    }
  });
});
