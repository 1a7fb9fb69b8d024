/**
 * Files streamed to the blob store as they arrive, end to end (issue 22): an agent on the wire
 * sends a file as 1 MB `raw` chunks, and in every mode the worker (a real process) is SIGKILLed
 * while the task works with half the file sent: in stream mode after half the chunks came through
 * its stream (the new worker's SubscribeToTask starts with the agent's snapshot holding that
 * half, read as it arrives when it passes the SSE event cap); in poll mode after its GetTasks
 * saw half; in push mode while it waits for the notification. A new worker process finishes.
 * Each time: the stored blob is byte-identical (SHA-256) to what the agent sent, the store holds
 * one copy, the result carries an ArtifactRef, every payload in history is under 64 KB, and the
 * new worker's resident memory stays within 150 MB of what it held idle (VmRSS when ready, then
 * its peak, VmHWM reset at that moment).
 *
 * The stream case sends 200 MB (`A2A_TEST_FILE_MB` sizes it; `npm run test:cluster` sends 6 MB to
 * its S3 store). Poll and push send 12 MB, so their GetTask bodies (16 MB of JSON) pass the 8 MiB
 * body cap and are read as they arrive.
 *
 * Text goes the same way: a 40 MB log in 1 MB text parts (`A2A_TEST_TEXT_MB`), to a worker
 * whose heap is capped at 256 MB (the agent's byte budget raised past the text in its agents-file
 * entry, since text counts against it wherever it is kept).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackingProgress } from '../../../client/tracking-progress.js';
import { artifactRefOf, type DelegateResult } from '../../../contract/index.js';
import { readArtifact } from '../../../storage/read-artifact.js';
import { startHostileAgent, type AgentControl, type HostileAgent, type WireTask } from '../../hostile/hostile-agent.js';
import { startDelegate } from '../../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { testBlobStore } from '../../helpers/test-blob-store.js';
import { waitFor } from '../../helpers/wait.js';
import { spawnWorkerProcess, type WorkerProcess } from '../../helpers/worker-process.js';
import { SECRET, startReceiver } from '../push/support.js';

const temporal = useTemporal();
const CHUNK = 1_000_000;
const HISTORY_PAYLOAD_MAX = 64 * 1024;
const RSS_HEADROOM = 150 * 1024 * 1024;

type Mode = 'stream' | 'poll' | 'push';

/** The file of a mode: deterministic bytes that do not repeat in any short period (each 32 bytes a SHA-256 of its index). */
interface SentFile {
  size: number;
  chunks: number;
  half: number;
  sha: string;
  part: (i: number) => { raw: string; filename: string; mediaType: string };
}

function sentFile(megabytes: number): SentFile {
  const size = megabytes * CHUNK;
  const bytes = Buffer.alloc(size);
  for (let at = 0, i = 0; at < size; at += 32, i++) createHash('sha256').update(String(i)).digest().copy(bytes, at);
  const chunks = Math.ceil(size / CHUNK);
  return {
    size,
    chunks,
    half: Math.floor(chunks / 2),
    sha: createHash('sha256').update(bytes).digest('hex'),
    part: (i) => ({
      raw: bytes.subarray(i * CHUNK, (i + 1) * CHUNK).toString('base64'),
      filename: 'release.tar',
      mediaType: 'application/x-tar',
    }),
  };
}

/** Stream: 200 MB (A2A_TEST_FILE_MB); poll and push: 12 MB, a GetTask body past the 8 MiB cap. */
const GET_TASK_FILE = sentFile(12);
const FILES: Record<Mode, SentFile> = {
  stream: sentFile(Number(process.env.A2A_TEST_FILE_MB ?? 200)),
  poll: GET_TASK_FILE,
  push: GET_TASK_FILE,
};
/** The file each of the agent's tasks sends. */
const fileOf = new Map<string, SentFile>();
const taskFile = (task: WireTask) => fileOf.get(task.id)!;

const root = mkdtempSync(join(tmpdir(), 'a2a-streamed-'));
/** A folder in `npm test`, the cluster's S3 server in `npm run test:cluster`. */
const { store, env: storeEnv, sessionBytes } = testBlobStore(join(root, 'blobs'));
let agent: HostileAgent;

/** Released by each test once its first worker is dead: the agent then sends the rest of the file. */
const release = {} as Record<Mode, () => void>;
const released = Object.fromEntries(
  (['stream', 'poll', 'push'] as const).map((mode) => [mode, new Promise<void>((r) => (release[mode] = r))]),
) as Record<Mode, Promise<void>>;
/** The push test's task once its push config is registered. */
let pushRegistered: () => void = () => {};
const pushConfigured = new Promise<void>((resolve) => (pushRegistered = resolve));

type Frame = Record<string, unknown>;
/** Poll-mode tasks: each GetTask adds a chunk until half the file, and the rest once released. */
const polled = new Set<string>();
let pollReleased = false;
/** Push-mode tasks whose config is registered (a retried registration changes nothing). */
const pushing = new Set<string>();
void released.poll.then(() => (pollReleased = true));

function chunkFrame(task: WireTask, i: number): Frame {
  return {
    artifactUpdate: {
      taskId: task.id,
      contextId: task.contextId,
      artifact: { artifactId: 'release', name: 'Release archive', parts: [taskFile(task).part(i)] },
      ...(i > 0 ? { append: true } : {}),
      ...(i === taskFile(task).chunks - 1 ? { lastChunk: true } : {}),
    },
  };
}

/**
 * A text artifact past the delegation's byte budget (32 MiB): 40 MB of log lines in 1 MB text
 * parts, which only the store can hold.
 */
const TEXT_HEAP_MB = 256;
const TEXT = (() => {
  const chunks = Number(process.env.A2A_TEST_TEXT_MB ?? 40);
  const chunk = (i: number) => {
    const lines: string[] = [];
    for (let n = 0, length = 0; length < CHUNK; n++) {
      const line = `${String(i).padStart(2, '0')}:${String(n).padStart(6, '0')} deploy payment-service step ok\n`;
      lines.push(line);
      length += line.length;
    }
    return lines.join('').slice(0, CHUNK);
  };
  const hash = createHash('sha256');
  for (let i = 0; i < chunks; i++) hash.update(chunk(i));
  return { chunks, chunk, size: chunks * CHUNK, sha: hash.digest('hex') };
})();

function textFrame(task: WireTask, i: number): Frame {
  return {
    artifactUpdate: {
      taskId: task.id,
      contextId: task.contextId,
      artifact: { artifactId: 'log', name: 'deploy.log', parts: [{ text: TEXT.chunk(i), mediaType: 'text/plain' }] },
      ...(i > 0 ? { append: true } : {}),
      ...(i === TEXT.chunks - 1 ? { lastChunk: true } : {}),
    },
  };
}

/** The agent's task gains chunk `i` (as an SDK's task store does when it emits the event). */
function record(task: WireTask, i: number): void {
  const parts = (task.artifacts ??= [{ artifactId: 'release', name: 'Release archive', parts: [] }])[0]!
    .parts as unknown[];
  parts.push(taskFile(task).part(i));
}

function complete(control: AgentControl, task: WireTask): Frame {
  control.apply(task.id, [{ state: 'TASK_STATE_COMPLETED', text: 'Archive attached.' }]);
  return { statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status } };
}

/** An SSE response written frame by frame (each awaited, so a dead client ends it). */
function stream(frames: (res: ServerResponse, send: (frame: Frame) => Promise<void>) => Promise<void>) {
  return {
    write(res: ServerResponse) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (frame: Frame) =>
        new Promise<void>((resolve) => {
          if (res.destroyed) return resolve();
          res.write(`data: ${JSON.stringify(frame)}\n\n`, () => resolve());
        });
      void frames(res, send).finally(() => res.end());
    },
  };
}

beforeAll(async () => {
  agent = await startHostileAgent({
    attack: {
      agent: {
        streaming: true,
        pushNotifications: true,
        intercept(call, control) {
          const message = call.params.message as { parts?: Array<{ text?: string }> } | undefined;
          if (call.operation === 'SendStreamingMessage' && message?.parts?.[0]?.text === 'text') {
            const task = control.createTask(call.params.message as Record<string, unknown>);
            control.apply(task.id, [{ state: 'TASK_STATE_WORKING' }]);
            return stream(async (_res, send) => {
              await send({ task: structuredClone(task) });
              for (let i = 0; i < TEXT.chunks; i++) await send(textFrame(task, i));
              await send(complete(control, task));
            });
          }
          if (call.operation === 'SendStreamingMessage') {
            const task = control.createTask(call.params.message as Record<string, unknown>);
            control.apply(task.id, [{ state: 'TASK_STATE_WORKING' }]);
            fileOf.set(task.id, FILES.stream);
            return stream(async (_res, send) => {
              await send({ task: structuredClone(task) });
              for (let i = 0; i < FILES.stream.half; i++) {
                record(task, i);
                await send(chunkFrame(task, i));
              }
              await released.stream; // the worker reading this stream is killed meanwhile
            });
          }
          if (call.operation === 'SubscribeToTask' && call.taskId) {
            const task = control.tasks.get(call.taskId)!;
            return stream(async (_res, send) => {
              await send({ task: structuredClone(task) });
              for (let i = task.artifacts?.[0]?.parts.length ?? 0; i < taskFile(task).chunks; i++) {
                record(task, i);
                await send(chunkFrame(task, i));
              }
              await send(complete(control, task));
            });
          }
          if (call.operation === 'SendMessage') {
            const task = control.createTask(call.params.message as Record<string, unknown>);
            control.apply(task.id, [{ state: 'TASK_STATE_WORKING' }]);
            fileOf.set(task.id, GET_TASK_FILE);
            // Poll: the file grows as it is read. Push: half the file, the rest once released.
            if (message?.parts?.[0]?.text === 'poll') polled.add(task.id);
            else for (let i = 0; i < GET_TASK_FILE.half; i++) record(task, i);
            return control.ok(call, { task: { ...structuredClone(task), artifacts: [] } });
          }
          if (call.operation === 'GetTask' && call.taskId && polled.has(call.taskId)) {
            const task = control.tasks.get(call.taskId)!;
            const sent = task.artifacts?.[0]?.parts.length ?? 0;
            if (sent < GET_TASK_FILE.half) record(task, sent);
            else if (pollReleased) {
              for (let i = sent; i < GET_TASK_FILE.chunks; i++) record(task, i);
              polled.delete(task.id);
              complete(control, task);
            }
          }
          if (call.operation === 'CreateTaskPushNotificationConfig' && call.taskId) {
            const reply = control.honest(call);
            const task = control.tasks.get(call.taskId)!;
            if (pushing.has(task.id)) return reply;
            pushing.add(task.id);
            pushRegistered();
            void released.push.then(() => {
              for (let i = GET_TASK_FILE.half; i < GET_TASK_FILE.chunks; i++) record(task, i);
              void control.deliver(task.id, complete(control, task));
            });
            return reply;
          }
          return undefined;
        },
      },
    },
  });
});

afterAll(async () => {
  for (const mode of ['stream', 'poll', 'push'] as const) release[mode]();
  await agent?.close();
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

/** Every payload in the delegation's history (inputs, results, heartbeat details, failures): their sizes. */
async function historyPayloadSizes(handle: WorkflowHandle): Promise<number[]> {
  const sizes: number[] = [];
  const walk = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    if (value instanceof Uint8Array) return;
    const object = value as Record<string, unknown>;
    if (object.data instanceof Uint8Array && 'metadata' in object) sizes.push(object.data.byteLength);
    for (const key of Object.keys(object)) walk(object[key]);
  };
  walk((await handle.fetchHistory()).events);
  return sizes;
}

/** The stored file of the delegation's result, checked: byte-identical, one copy in the store, history small. */
async function expectStoredFile(
  handle: WorkflowHandle,
  result: DelegateResult,
  file: { size: number; sha: string },
  named = { name: 'release.tar', mediaType: 'application/x-tar' },
): Promise<string> {
  expect(result.state).toBe('TASK_STATE_COMPLETED');
  const parts = result.artifacts.flatMap((a) => a.parts);
  expect(parts).toHaveLength(1);
  const ref = artifactRefOf(parts[0]!)!;
  expect(ref).toEqual({
    ...named,
    size: file.size,
    sha256: file.sha,
    key: `sha256:${file.sha}`,
  });
  const hash = createHash('sha256');
  for await (const chunk of await readArtifact(ref, { store })) hash.update(chunk as Buffer);
  expect(hash.digest('hex')).toBe(file.sha);
  let blobs = 0;
  const copies: string[] = [];
  for await (const blob of store.list()) {
    blobs++;
    if (blob.key === ref.key) copies.push(blob.key);
  }
  expect(copies).toHaveLength(1);
  const sizes = await historyPayloadSizes(handle);
  expect(sizes.length).toBeGreaterThan(0);
  expect(Math.max(...sizes)).toBeLessThan(HISTORY_PAYLOAD_MAX);
  return `history ${sizes.length} payloads, largest ${Math.max(...sizes)} B, ${sizes.reduce((a, b) => a + b, 0)} B in all; ${blobs} blobs in the store`;
}

/** A worker process's resident memory now and its peak (bytes), from /proc. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Watches a worker process's memory from now: idle is its RSS now, peak the most it holds until `stop`. */
function watchMemory(worker: WorkerProcess): { idle: number; stop: () => { idle: number; peak: number } } {
  const pid = worker.child.pid!;
  const idle = memoryOf(pid).rss;
  // Resets VmHWM to the current RSS (Linux 4.0+), so the peak is this run's, not the start-up's.
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  return {
    idle,
    stop: () => ({ idle, peak: memoryOf(pid).peak }),
  };
}

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * A worker process is killed while the task works with half the file sent (`killAt`: when), a new
 * one finishes the delegation; the file, history and the new worker's memory are checked.
 */
async function killedMidFile(
  mode: Mode,
  killAt: (handle: WorkflowHandle, file: SentFile) => Promise<void>,
  env: Record<string, string> = {},
) {
  const client = await temporal.client();
  const taskQueue = uniqueTaskQueue(`file-${mode}`);
  const agents = { agents: { files: { url: agent.baseUrl } } };
  const workerEnv = { ...storeEnv, ...env };
  const doomed = await spawnWorkerProcess(taskQueue, agents, workerEnv);
  const started = Date.now();
  const handle = await startDelegate(client, taskQueue, { agent: 'files', text: mode, mode });
  const file = FILES[mode];
  await killAt(handle, file);
  await doomed.kill('SIGKILL');
  const killed = Date.now();
  release[mode]();
  const rescuer = await spawnWorkerProcess(taskQueue, agents, workerEnv);
  try {
    const memory = watchMemory(rescuer);
    const result = (await handle.result()) as DelegateResult;
    const { idle, peak } = memory.stop();
    const done = Date.now();
    const figures = await expectStoredFile(handle, result, file);
    // The killed worker's spill folder (an event it was reading) was removed by the new one.
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`a2a-event-${doomed.child.pid}-`))).toEqual([]);
    console.log(
      `${mode} ${file.size / CHUNK} MB, killed at half: ${((done - started) / 1000).toFixed(1)} s (${((done - killed) / 1000).toFixed(1)} s after the kill); new worker RSS idle ${MB(idle)}, peak ${MB(peak)} (+${MB(peak - idle)}); ${figures}`,
    );
    expect(peak - idle).toBeLessThan(RSS_HEADROOM);
  } catch (error) {
    console.log(`the new worker's output:\n${rescuer.output().slice(-20_000)}`);
    throw error;
  } finally {
    await rescuer.kill('SIGKILL');
  }
}

/**
 * Half the file is in the store, and the heartbeat names the task and its file's size. (S3 holds
 * a session's bytes once a part, 8 MiB, is full: there the heartbeat is what says so.)
 */
async function halfStored(handle: WorkflowHandle, file: SentFile): Promise<void> {
  const half = file.half * CHUNK;
  await waitFor(
    async () =>
      (sessionBytes?.() ?? half) >= half && (await trackingProgress(handle))?.artifacts[0]?.files?.[0]?.size === half,
    { what: 'half the file in the store', timeoutMs: 60_000 },
  );
}

describe('files streamed to the blob store as they arrive', () => {
  it('stream mode: a worker SIGKILLed mid-file is replaced, and the file is stored once, byte-identical', async () => {
    await killedMidFile('stream', halfStored);
  }, 300_000);

  it('stream mode: a text artifact larger than the worker may hold in memory is stored as it arrives', async () => {
    const client = await temporal.client();
    const taskQueue = uniqueTaskQueue('text-stream');
    // Its heap capped below the text's size: text held anywhere would end it out of memory.
    const worker = await spawnWorkerProcess(
      taskQueue,
      // Text counts against the delegation's byte budget (32 MiB): this agent's is raised for its logs.
      { agents: { files: { url: agent.baseUrl, maxDelegationBytes: 2 * TEXT.size } } },
      { ...storeEnv, NODE_OPTIONS: `--max-old-space-size=${TEXT_HEAP_MB}` },
    );
    try {
      const memory = watchMemory(worker);
      const handle = await startDelegate(client, taskQueue, { agent: 'files', text: 'text', mode: 'stream' });
      const result = (await handle.result()) as DelegateResult;
      const { idle, peak } = memory.stop();
      const figures = await expectStoredFile(handle, result, TEXT, { name: 'deploy.log', mediaType: 'text/plain' });
      console.log(
        `text ${TEXT.size / CHUNK} MB in 1 MB parts: worker RSS idle ${MB(idle)}, peak ${MB(peak)} (+${MB(peak - idle)}); ${figures}`,
      );
      expect(peak - idle).toBeLessThan(RSS_HEADROOM);
    } catch (error) {
      console.log(`the worker's output:\n${worker.output().slice(-20_000)}`);
      throw error;
    } finally {
      await worker.kill('SIGKILL');
    }
  }, 120_000);

  it('poll mode: a worker SIGKILLed mid-file is replaced, and the file is stored once, byte-identical', async () => {
    await killedMidFile('poll', halfStored);
  }, 120_000);

  it('push mode: a worker SIGKILLed while it waits is replaced, and the file is stored once, byte-identical', async () => {
    const client = await temporal.client();
    const receiver = await startReceiver(client);
    try {
      // Killed once the registration is done and the workflow waits for the notification.
      const waiting = async (handle: WorkflowHandle) => {
        await pushConfigured;
        await waitFor(async () => ((await handle.describe()).raw.pendingActivities ?? []).length === 0, {
          what: 'the workflow waiting for the notification',
        });
      };
      await killedMidFile('push', waiting, {
        A2A_WEBHOOK_URL: receiver.url,
        A2A_WEBHOOK_SECRET: SECRET,
      });
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
