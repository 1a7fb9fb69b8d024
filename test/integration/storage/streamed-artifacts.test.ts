/**
 * Files streamed to the blob store as they arrive, end to end (issue 22): an agent on the wire
 * sends a 6 MB file as 1 MB `raw` chunks. In stream mode the worker (a real process) is
 * SIGKILLed after half the file; a new worker resumes from what the store holds. In poll and push
 * mode the finished task holds the whole file. Each time: the stored blob is byte-identical
 * (SHA-256) to what the agent sent, the store holds one copy, the result carries an ArtifactRef,
 * and every payload in history is under 64 KB.
 *
 * `A2A_TEST_FILE_MB` sizes the file (the default, 6, keeps `npm test` fast).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackingProgress } from '../../../client/tracking-progress.js';
import { artifactRefOf, type DelegateResult } from '../../../contract/index.js';
import { readArtifact } from '../../../storage/read-artifact.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { startHostileAgent, type AgentControl, type HostileAgent, type WireTask } from '../../hostile/hostile-agent.js';
import { registryOf, startDelegate } from '../../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { testBlobStore } from '../../helpers/test-blob-store.js';
import { waitFor } from '../../helpers/wait.js';
import { spawnWorkerProcess } from '../../helpers/worker-process.js';
import { SECRET, startReceiver } from '../push/support.js';

const temporal = useTemporal();
const CHUNK = 1_000_000;
const SIZE = Number(process.env.A2A_TEST_FILE_MB ?? 6) * CHUNK;
const CHUNKS = Math.ceil(SIZE / CHUNK);
const HALF = Math.floor(CHUNKS / 2);
const HISTORY_PAYLOAD_MAX = 64 * 1024;

/** The file: deterministic bytes that do not repeat in any short period (each 32 bytes a SHA-256 of its index). */
const file = (() => {
  const out = Buffer.alloc(SIZE);
  for (let at = 0, i = 0; at < SIZE; at += 32, i++) createHash('sha256').update(String(i)).digest().copy(out, at);
  return out;
})();
const fileSha = createHash('sha256').update(file).digest('hex');
const chunkPart = (i: number) => ({
  raw: file.subarray(i * CHUNK, (i + 1) * CHUNK).toString('base64'),
  filename: 'release.tar',
  mediaType: 'application/x-tar',
});

const root = mkdtempSync(join(tmpdir(), 'a2a-streamed-'));
/** A folder in `npm test`, the cluster's S3 server in `npm run test:cluster`. */
const { store, env: storeEnv, sessionBytes } = testBlobStore(join(root, 'blobs'));
let agent: HostileAgent;
/** Released by the stream test once the first worker is dead: the first stream then ends. */
let releaseFirstStream: () => void = () => {};
const firstStreamReleased = new Promise<void>((resolve) => (releaseFirstStream = resolve));

type Frame = Record<string, unknown>;
/** Poll-mode tasks not read yet. */
const polled = new Set<string>();

function chunkFrame(task: WireTask, i: number): Frame {
  return {
    artifactUpdate: {
      taskId: task.id,
      contextId: task.contextId,
      artifact: { artifactId: 'release', name: 'Release archive', parts: [chunkPart(i)] },
      ...(i > 0 ? { append: true } : {}),
      ...(i === CHUNKS - 1 ? { lastChunk: true } : {}),
    },
  };
}

/** The agent's task gains chunk `i` (as an SDK's task store does when it emits the event). */
function record(task: WireTask, i: number): void {
  const parts = (task.artifacts ??= [{ artifactId: 'release', name: 'Release archive', parts: [] }])[0]!
    .parts as unknown[];
  parts.push(chunkPart(i));
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
          if (call.operation === 'SendStreamingMessage') {
            const task = control.createTask(call.params.message as Record<string, unknown>);
            control.apply(task.id, [{ state: 'TASK_STATE_WORKING' }]);
            return stream(async (_res, send) => {
              await send({ task: structuredClone(task) });
              for (let i = 0; i < HALF; i++) {
                record(task, i);
                await send(chunkFrame(task, i));
              }
              await firstStreamReleased; // the worker reading this stream is killed meanwhile
            });
          }
          if (call.operation === 'SubscribeToTask' && call.taskId) {
            const task = control.tasks.get(call.taskId)!;
            return stream(async (_res, send) => {
              await send({ task: structuredClone(task) });
              for (let i = task.artifacts?.[0]?.parts.length ?? 0; i < CHUNKS; i++) {
                record(task, i);
                await send(chunkFrame(task, i));
              }
              await send(complete(control, task));
            });
          }
          if (call.operation === 'SendMessage') {
            const task = control.createTask(call.params.message as Record<string, unknown>);
            control.apply(task.id, [{ state: 'TASK_STATE_WORKING' }]);
            for (let i = 0; i < CHUNKS; i++) record(task, i);
            // Poll: finished when first read. Push: finished once the config is registered.
            if (message?.parts?.[0]?.text === 'poll') polled.add(task.id);
            return control.ok(call, { task: { ...structuredClone(task), artifacts: [] } });
          }
          if (call.operation === 'GetTask' && call.taskId && polled.delete(call.taskId)) {
            complete(control, control.tasks.get(call.taskId)!);
          }
          if (call.operation === 'CreateTaskPushNotificationConfig' && call.taskId) {
            const reply = control.honest(call);
            const task = control.tasks.get(call.taskId)!;
            setImmediate(() => void control.deliver(task.id, complete(control, task)));
            return reply;
          }
          return undefined;
        },
      },
    },
  });
});

afterAll(async () => {
  releaseFirstStream();
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

/** The stored file of the delegation's result, checked: byte-identical, one copy in the store. */
async function expectStoredFile(handle: WorkflowHandle, result: DelegateResult): Promise<void> {
  expect(result.state).toBe('TASK_STATE_COMPLETED');
  const parts = result.artifacts.flatMap((a) => a.parts);
  expect(parts).toHaveLength(1);
  const ref = artifactRefOf(parts[0]!)!;
  expect(ref).toEqual({
    name: 'release.tar',
    mediaType: 'application/x-tar',
    size: SIZE,
    sha256: fileSha,
    key: `sha256:${fileSha}`,
  });
  const hash = createHash('sha256');
  for await (const chunk of await readArtifact(ref, { store })) hash.update(chunk as Buffer);
  expect(hash.digest('hex')).toBe(fileSha);
  const copies: string[] = [];
  for await (const blob of store.list()) if (blob.key === ref.key) copies.push(blob.key);
  expect(copies).toHaveLength(1);
  const sizes = await historyPayloadSizes(handle);
  expect(sizes.length).toBeGreaterThan(0);
  expect(Math.max(...sizes)).toBeLessThan(HISTORY_PAYLOAD_MAX);
  console.log(
    `${result.agent} ${SIZE / CHUNK} MB: history ${sizes.length} payloads, largest ${Math.max(...sizes)} bytes, ${sizes.reduce((a, b) => a + b, 0)} bytes in all`,
  );
}

const blobsPlugin = (extra: Parameters<typeof a2aTemporalPlugin>[0] = {}) =>
  a2aTemporalPlugin({
    registry: registryOf({ files: agent }),
    blobs: { store, thresholdBytes: 256 * 1024 },
    ...extra,
  });

describe('files streamed to the blob store as they arrive', () => {
  it('stream mode: a worker SIGKILLed mid-file is replaced, and the file is stored once, byte-identical', async () => {
    const client = await temporal.client();
    const taskQueue = uniqueTaskQueue('file-stream');
    const doomed = await spawnWorkerProcess(taskQueue, { agents: { files: { url: agent.baseUrl } } }, storeEnv);
    const handle = await startDelegate(client, taskQueue, { agent: 'files', text: 'stream', mode: 'stream' });
    // Half the file is in the store, and the heartbeat names the task: kill the worker there. (S3
    // holds a session's bytes once a part, 8 MiB, is full: there the heartbeat is what says so.)
    await waitFor(
      async () =>
        (sessionBytes?.() ?? HALF * CHUNK) >= HALF * CHUNK &&
        (await trackingProgress(handle))?.artifacts[0]?.files?.[0]?.size === HALF * CHUNK,
      { what: 'half the file in the store', timeoutMs: 60_000 },
    );
    await doomed.kill('SIGKILL');
    releaseFirstStream();
    const rescuer = await temporal.worker({ taskQueue, plugins: [blobsPlugin()] });
    const result = (await rescuer.runUntil(handle.result())) as DelegateResult;
    await expectStoredFile(handle, result);
  }, 120_000);

  it("poll mode: the finished task's file is stored once, byte-identical", async () => {
    const client = await temporal.client();
    const taskQueue = uniqueTaskQueue('file-poll');
    const worker = await temporal.worker({ taskQueue, plugins: [blobsPlugin()] });
    const handle = await startDelegate(client, taskQueue, { agent: 'files', text: 'poll', mode: 'poll' });
    const result = (await worker.runUntil(handle.result())) as DelegateResult;
    await expectStoredFile(handle, result);
  });

  it('push mode: the task read after the notification has its file stored once, byte-identical', async () => {
    const client = await temporal.client();
    const receiver = await startReceiver(client);
    try {
      const taskQueue = uniqueTaskQueue('file-push');
      const worker = await temporal.worker({
        taskQueue,
        plugins: [blobsPlugin({ webhook: { publicUrl: receiver.url, secret: SECRET } })],
      });
      const handle = await startDelegate(client, taskQueue, { agent: 'files', text: 'push', mode: 'push' });
      const result = (await worker.runUntil(handle.result())) as DelegateResult;
      await expectStoredFile(handle, result);
    } finally {
      await receiver.close();
    }
  });
});
