/** Push-mode test rig: a real sample agent, a real receiver signalling the shared dev server, and a worker that knows both. */
import { spawn } from 'node:child_process';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { createA2AClient, fetchAgentCard, type TaskPushNotificationConfig } from '../../../a2a/index.js';
import type { RunningAgent } from '../../../agents/index.js';
import { parsePushPath } from '../../../activities/index.js';
import type { PushBinding } from '../../../activities/push-credential.js';
import { packageRoot } from '../../../platform/paths.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { temporalNotifier } from '../../../worker/webhook-notifier.js';
import { startWebhookReceiver, type RunningWebhookReceiver } from '../../../worker/webhook-receiver.js';
import { registryOf } from '../../helpers/delegations.js';
import { temporalServer, uniqueTaskQueue, type useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';

export const SECRET = 'push-test-secret-0123456789abcdefghijklmnop';

/** The receiver, quiet: refusals are asserted through its counters. */
export async function startReceiver(client: Client, port = 0): Promise<RunningWebhookReceiver> {
  return startWebhookReceiver({
    secret: SECRET,
    port,
    notify: temporalNotifier(client),
    logger: { warn() {}, error: console.error },
  });
}

/** Runs `fn` with a worker whose activities register push configs pointing at `publicUrl`. */
export async function withPushWorker<T>(
  temporal: ReturnType<typeof useTemporal>,
  agent: RunningAgent,
  publicUrl: string,
  fn: (taskQueue: string) => Promise<T>,
): Promise<T> {
  const taskQueue = uniqueTaskQueue('push');
  const worker = await temporal.worker({
    taskQueue,
    plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: agent }), webhook: { publicUrl, secret: SECRET } })],
  });
  return worker.runUntil(fn(taskQueue));
}

export type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

export async function historyOf(handle: WorkflowHandle): Promise<HistoryEvent[]> {
  return (await handle.fetchHistory()).events ?? [];
}

/**
 * Names of the activities the history ran, in order, without our `a2a.` prefix (`sendMessage`,
 * …): those scheduled as activity tasks and the local ones (push mode's reads, `resolveAgent`),
 * which leave a marker instead.
 */
export function activitiesIn(events: HistoryEvent[]): string[] {
  return events.flatMap((e) => {
    const name = e.activityTaskScheduledEventAttributes?.activityType?.name ?? localActivityIn(e)?.name;
    return name ? [withoutPrefix(name)] : [];
  });
}

/** Activities scheduled as activity tasks (not local ones), without our prefix. */
function activityTasksIn(events: HistoryEvent[]): string[] {
  return events.flatMap((e) => {
    const name = e.activityTaskScheduledEventAttributes?.activityType?.name;
    return name ? [withoutPrefix(name)] : [];
  });
}

/** The local activity a marker event records: its type and its result (JSON), or undefined for any other event. */
export function localActivityIn(e: HistoryEvent): { name: string; result: unknown } | undefined {
  const marker = e.markerRecordedEventAttributes;
  if (marker?.markerName !== 'core_local_activity') return undefined;
  const json = (key: string): unknown => {
    const data = marker.details?.[key]?.payloads?.[0]?.data;
    return data ? JSON.parse(Buffer.from(data).toString('utf8')) : undefined;
  };
  const meta = json('data') as { activity_type?: string } | undefined;
  return meta?.activity_type ? { name: meta.activity_type, result: json('result') } : undefined;
}

/** An activity type name without our `a2a.` prefix. */
export function withoutPrefix(name: string): string {
  return name.startsWith('a2a.') ? name.slice('a2a.'.length) : name;
}

/** The `taskUpdated` signals the history received. */
export function taskUpdatedSignals(events: HistoryEvent[]): HistoryEvent[] {
  return events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'taskUpdated');
}

/**
 * The events the workflow has processed: everything up to its last completed workflow task.
 * A signal after that has been received but not yet seen by the workflow's code.
 */
export function processedEvents(events: HistoryEvent[]): HistoryEvent[] {
  const last = events.findLastIndex((e) => e.workflowTaskCompletedEventAttributes);
  return events.slice(0, last + 1);
}

/** Activities scheduled but not closed (completed, failed, timed out or canceled) in `events`. */
export function openActivities(events: HistoryEvent[]): number {
  const closed = events.filter(
    (e) =>
      e.activityTaskCompletedEventAttributes ||
      e.activityTaskFailedEventAttributes ||
      e.activityTaskTimedOutEventAttributes ||
      e.activityTaskCanceledEventAttributes,
  ).length;
  return activityTasksIn(events).length - closed;
}

/** Event counts by type (the name of the event's attributes, e.g. `activityTaskScheduled`), for reports. */
export function eventCounts(events: HistoryEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of events) {
    const key = Object.keys(e).find((k) => k.endsWith('EventAttributes') && (e as Record<string, unknown>)[k]);
    const name = key?.replace(/EventAttributes$/, '') ?? 'unknown';
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

/**
 * The ids of the push configs the delegation registered, in order: named by the result of the
 * send or read that registered one (`pushConfigRegistered`), or by the input of registerPushConfig.
 */
function registeredConfigIds(events: HistoryEvent[]): string[] {
  return events.flatMap((e) => {
    const local = localActivityIn(e);
    if (local && withoutPrefix(local.name) === 'getTask') {
      const configId = (local.result as { pushConfigRegistered?: string } | undefined)?.pushConfigRegistered;
      return configId ? [configId] : [];
    }
    const completed = e.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data;
    if (completed) {
      const configId = (JSON.parse(Buffer.from(completed).toString('utf8')) as { pushConfigRegistered?: unknown })
        .pushConfigRegistered;
      return typeof configId === 'string' ? [configId] : [];
    }
    const scheduled = e.activityTaskScheduledEventAttributes;
    const data = scheduled?.input?.payloads?.[0]?.data;
    if (!data || withoutPrefix(scheduled?.activityType?.name ?? '') !== 'registerPushConfig') return [];
    return [(JSON.parse(Buffer.from(data).toString('utf8')) as { configId: string }).configId];
  });
}

/** The id of the push config the delegation registered first. */
export function registeredConfigId(events: HistoryEvent[]): string {
  const [configId] = registeredConfigIds(events);
  if (!configId) throw new Error('the history registered no push config');
  return configId;
}

/** How many push configs the delegation registered: reads that registered one, and registerPushConfig activities. */
export function registrationsIn(events: HistoryEvent[]): number {
  return registeredConfigIds(events).length;
}

/** Where the agent delivers the updates of `taskId`, and with which credential: the push config it holds. */
export async function deliveryTarget(
  agent: RunningAgent,
  taskId: string,
): Promise<{ url: string; credential: string; binding: PushBinding }> {
  const [config] = await pushConfigsAt(agent, taskId);
  if (!config) throw new Error(`the agent holds no push config for ${taskId}`);
  const binding = parsePushPath(new URL(config.url).pathname);
  if (!binding) throw new Error(`not a push URL: ${config.url}`);
  return { url: config.url, credential: config.authentication?.credentials ?? '', binding };
}

/** The push configs the agent holds for `taskId` (ours until the delegation deletes it, or for good once the task ended). */
export async function pushConfigsAt(agent: RunningAgent, taskId: string): Promise<TaskPushNotificationConfig[]> {
  const { card } = await fetchAgentCard(agent.baseUrl);
  return (await createA2AClient({ card }).listPushConfigs({ taskId })).configs;
}

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A proxy in front of the receiver that records every delivery and forwards it `copies` times
 * (a duplicating network), answering the agent with the first forward's status.
 */
export async function startTap(
  target: string,
  copies = 1,
): Promise<{ url: string; deliveries: Delivery[]; close(): Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const delivery = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      deliveries.push(delivery);
      void (async () => {
        let first = 0;
        for (let i = 0; i < copies; i += 1) {
          const status = await forward(target, delivery).catch(() => 502);
          if (i === 0) first = status;
        }
        res.writeHead(first).end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** POSTs a recorded delivery (same path, headers and body) to `target`; resolves to the status. */
export function forward(target: string, delivery: Delivery): Promise<number> {
  return new Promise((resolve, reject) => {
    const { host: _host, connection: _connection, ...headers } = delivery.headers;
    const req = request(`${target}${delivery.path}`, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(delivery.body);
  });
}

export interface CliProcess {
  /** The process id of the CLI (its node process: /proc/<pid>/status has its memory). */
  pid: number;
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/**
 * Runs the real CLI (`client/cli.ts` under tsx) against the run's dev server; resolves once
 * `ready` was printed. `wrapper` is a command that execs the rest (`sh -c 'ulimit -n …; exec "$@"'`), so the
 * process id stays node's.
 */
export async function spawnCli(
  args: string[],
  env: Record<string, string>,
  ready: string | RegExp,
  wrapper: string[] = [],
): Promise<CliProcess> {
  const server = temporalServer();
  const command = [...wrapper, process.execPath, '--import', 'tsx', join(packageRoot, 'client', 'cli.ts'), ...args];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: packageRoot,
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      A2A_WORKFLOW_BUNDLE: server.workflowBundlePath,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await Promise.race([
    waitFor(() => (typeof ready === 'string' ? output.includes(ready) : ready.test(output)), {
      timeoutMs: 60_000,
      what: `"${String(ready)}" from a2a-temporal ${args[0]}`,
    }),
    exited.then((code) => {
      throw new Error(`a2a-temporal ${args.join(' ')} exited (${code}) before it was ready:\n${output}`);
    }),
  ]);
  return {
    pid: child.pid!,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
