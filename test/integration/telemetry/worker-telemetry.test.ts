/**
 * Tracing across a crash, and the metrics endpoint, with real worker processes: a worker
 * SIGKILLed in the middle of a stream turn leaves the trace whole (the attempt that resumes on
 * another worker sits under the same StartActivity span, in the same trace), and a worker
 * exporting metrics the Prometheus way serves the SDK's metrics and ours, with the labels and
 * counts of the delegations it ran.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { trackingProgress } from '../../../client/tracking-progress.js';
import { answerUpdate, type DelegateResult } from '../../../contract/index.js';
import { freePort } from '../../../platform/free-port.js';
import { tracingClientOptions } from '../../../telemetry/client-interceptors.js';
import { startTracing, stopTracing } from '../../../telemetry/tracing.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { compatRequest, registryOf, startDelegate, waitForQuestion } from '../../helpers/delegations.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../helpers/otlp-receiver.js';
import { scrapePrometheus, sampleValue } from '../../helpers/prometheus.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';
import { spawnWorkerProcess } from '../../helpers/worker-process.js';

const temporal = useTemporal();
let receiver: OtlpReceiver;
let agent: RunningAgent;
let client: Client;
let otel: Record<string, string>;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' };
  Object.assign(process.env, otel);
  startTracing('a2a-temporal-test');
  agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 10 });
  const base = await temporal.client();
  client = new Client({ connection: base.connection, namespace: base.options.namespace, ...tracingClientOptions() });
});
afterAll(async () => {
  await stopTracing();
  await agent?.close();
  await receiver?.close();
});

describe('a traced delegation whose worker is killed', () => {
  it('resumes its stream turn on another worker under the same StartActivity span, in the same trace', async () => {
    const taskQueue = uniqueTaskQueue('trace-crash');
    const doomed = await spawnWorkerProcess(taskQueue, { agents: { compat: { url: agent.baseUrl } } }, otel);
    const handle = await startDelegate(
      client,
      taskQueue,
      // Its three chunks 5 s apart: the stream must still run when the kill lands, and the first chunk
      // reaches the heartbeat details (sent at most every second) well before it ends.
      compatRequest({
        mode: 'stream',
        text: 'Check payment-service for Node.js 24.',
        metadata: { chunkDelayMs: 5_000 },
      }),
    );
    await waitFor(async () => ((await trackingProgress(handle))?.artifacts[0]?.parts ?? 0) >= 1, {
      what: 'the first chunk',
    });
    await doomed.kill('SIGKILL');

    // The rescuer runs here, exporting through this process's SDK.
    const rescuer = await temporal.worker({
      taskQueue,
      plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: agent }) })],
    });
    const result = (await rescuer.runUntil(handle.result())) as DelegateResult;
    expect(result.state).toBe('TASK_STATE_COMPLETED');

    const root = await receiver.waitFor(
      (spans) =>
        spans.find((s) => s.name === 'StartWorkflow:delegate' && s.attributes.temporalWorkflowId === handle.workflowId),
      'the delegation root span',
    );
    const resumed = await receiver.waitFor((spans) => {
      const run = spans.find(
        (s) =>
          s.traceId === root.traceId &&
          s.name.startsWith('RunActivity:') &&
          s.resource['service.name'] === 'a2a-temporal-test',
      );
      const start = run && spans.find((s) => s.spanId === run.parentSpanId);
      const resubscribe = run && spans.find((s) => s.parentSpanId === run.spanId && s.name === 'A2A SubscribeToTask');
      const served = resubscribe && spans.find((s) => s.parentSpanId === resubscribe.spanId && s.kind === 2);
      return run && start && served ? { run, start, resubscribe: resubscribe!, served } : undefined;
    }, 'the resumed attempt, its StartActivity span and the agent side of the resubscription');
    expect(resumed.start.name).toMatch(/^StartActivity:/);
    expect(resumed.start.name.slice('StartActivity:'.length)).toBe(resumed.run.name.slice('RunActivity:'.length));
    for (const span of [resumed.start, resumed.resubscribe, resumed.served]) expect(span.traceId).toBe(root.traceId);
    // The StartActivity span was made by the killed worker and made again, with the same id, by the rescuer's replay.
    const workflow = receiver.spans.find((s) => s.spanId === resumed.start.parentSpanId);
    expect(workflow?.name).toBe('RunWorkflow:delegate');
    expect(workflow?.parentSpanId).toBe(root.spanId);
  });
});

describe('the logs of a traced worker', () => {
  it('are one JSON object per line with A2A_LOG_FORMAT=json, carrying the workflow id and the trace id', async () => {
    const taskQueue = uniqueTaskQueue('json-logs');
    // The agent wants a token the worker does not have: the activity fails, and the SDK logs it.
    const guarded = await startDependencyCompatAgent({ port: 0, bearerToken: 'not-given' });
    const worker = await spawnWorkerProcess(
      taskQueue,
      { agents: { compat: { url: guarded.baseUrl, auth: { type: 'bearer', tokenEnv: 'JSON_LOG_TEST_TOKEN' } } } },
      { ...otel, A2A_LOG_FORMAT: 'json' },
    );
    let stderr = '';
    worker.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const handle = await startDelegate(client, taskQueue, compatRequest({ mode: 'stream' }));
      await expect(handle.result()).rejects.toThrow();
      const root = await receiver.waitFor(
        (spans) =>
          spans.find(
            (s) => s.name === 'StartWorkflow:delegate' && s.attributes.temporalWorkflowId === handle.workflowId,
          ),
        'the delegation root span',
      );
      const lines = await waitFor(
        () => {
          const all = stderr.split('\n').filter((l) => l.trim());
          return all.some((l) => l.includes(handle.workflowId)) ? all : undefined;
        },
        { what: 'a log line about the delegation' },
      );
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const entry of entries) expect(Object.keys(entry).slice(0, 3)).toEqual(['time', 'level', 'message']);
      const about = entries.filter((e) => e.workflowId === handle.workflowId);
      expect(about.length).toBeGreaterThan(0);
      expect(about.some((e) => e.trace_id === root.traceId)).toBe(true);
    } finally {
      await worker.kill('SIGTERM');
      await guarded.close();
    }
  });
});

describe('the metrics endpoint of a worker', () => {
  it("serves the SDK's worker metrics and ours with the expected labels and counts after a run", async () => {
    const taskQueue = uniqueTaskQueue('metrics');
    const [port, webhookPort] = [await freePort(), await freePort()];
    const secret = `webhook-secret-${randomUUID()}`;
    const worker = await spawnWorkerProcess(
      taskQueue,
      { agents: { compat: { url: agent.baseUrl } } },
      {
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
        A2A_WEBHOOK_URL: `http://127.0.0.1:${webhookPort}`,
        A2A_WEBHOOK_SECRET: secret,
      },
      ['--webhook-port', String(webhookPort)],
    );
    try {
      // A stream and a push delegation, each with an input round; the push one's task takes a
      // moment, so a delivery wakes it (a task decided at once is read by the send).
      for (const mode of ['stream', 'push'] as const) {
        const request = compatRequest({ mode, ...(mode === 'push' ? { metadata: { workDelayMs: 500 } } : {}) });
        const handle = await startDelegate(client, taskQueue, request, `${taskQueue}-${mode}`);
        const question = await waitForQuestion(handle);
        await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24', taskId: question.taskId }] });
        await handle.result();
      }
      // And a delivery nobody should accept.
      const refused = await fetch(`http://127.0.0.1:${webhookPort}/a2a/push/${taskQueue}-push/some-task/some-config`, {
        method: 'POST',
        headers: { authorization: 'Bearer not-the-credential', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(refused.status).toBe(403);

      const url = `http://127.0.0.1:${port}/metrics`;
      const samples = await waitFor(
        async () => {
          const s = await scrapePrometheus(url);
          return (sampleValue(s, 'a2a_delegations_completed', { agent: 'compat' }) ?? 0) >= 2 ? s : undefined;
        },
        { what: 'both delegations in the metrics' },
      );
      const value = (name: string, labels: Record<string, string> = {}) => sampleValue(samples, name, labels);

      expect(value('temporal_workflow_completed', { task_queue: taskQueue }), 'the SDK metrics').toBe(2);
      const ours = { agent: 'compat', workflowType: 'delegate', taskQueue };
      expect(value('a2a_delegations_started', ours)).toBe(2);
      expect(value('a2a_delegations_completed', ours)).toBe(2);
      expect(value('a2a_delegations_failed', ours)).toBeUndefined();
      expect(value('a2a_delegation_rounds_count', ours)).toBe(2);
      expect(value('a2a_delegation_rounds_sum', ours)).toBe(2);
      expect(value('a2a_input_wait_duration_count', { ...ours, outcome: 'answered' })).toBe(2);
      expect(value('a2a_input_wait_duration_bucket', { ...ours, outcome: 'answered', le: '+Inf' })).toBe(2);
      const requests = (operation: string) =>
        value('a2a_request_duration_count', { agent: 'compat', operation, outcome: 'ok' });
      expect(requests('SendStreamingMessage')).toBe(2);
      expect(requests('SendMessage')).toBe(2);
      expect(requests('CreateTaskPushNotificationConfig')).toBe(1);
      expect(requests('DeleteTaskPushNotificationConfig')).toBeUndefined(); // the config ended with its task
      expect(value('a2a_push_deliveries', { outcome: 'signaled' })).toBeGreaterThanOrEqual(1);
      expect(value('a2a_push_deliveries', { outcome: 'bad-credential' })).toBe(1);
    } finally {
      await worker.kill('SIGTERM');
    }
  });
});
