/**
 * File parts to the blob store as they arrive (activities/artifact-spool.ts), through the task
 * view the tracking activities use, inside Temporal's activity test environment and on a real
 * filesystem store: chunks reassembled byte-exactly, a resumed attempt writing each byte once,
 * forged references dropped, and the stored-bytes budget and per-artifact cap.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Part, StreamResponse, Task } from '../../../a2a/index.js';
import { ResponseTooLargeError } from '../../../a2a/errors.js';
import { ArtifactSpool, currentSpoolScope, type SpoolSettings } from '../../../activities/artifact-spool.js';
import { TaskView, type TrackOutcome } from '../../../activities/task-outcome.js';
import { ARTIFACT_REF_KEY, PENDING_FILE_KEY, artifactRefOf } from '../../../contract/index.js';
import { FsBlobStore } from '../../../storage/fs-blob-store.js';
import { readBlob } from '../../../storage/blob-store.js';

let dir: string;
let store: FsBlobStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'a2a-spool-'));
  store = new FsBlobStore({ dir });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 1024 * 1024;
const file = Buffer.from(Array.from({ length: 3 * MiB + 123 }, (_, i) => (i * 31 + (i >> 9)) & 0xff));
const CHUNK = 256 * 1024;
const chunks = Array.from({ length: Math.ceil(file.length / CHUNK) }, (_, i) =>
  file.subarray(i * CHUNK, (i + 1) * CHUNK),
);
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function settings(over: Partial<SpoolSettings> = {}): SpoolSettings {
  return { store, textThresholdBytes: 64 * 1024, maxStoredBytes: 64 * MiB, maxArtifactBytes: 32 * MiB, ...over };
}

const task = (artifacts: Task['artifacts'] = [], state: Task['status']['state'] = 'TASK_STATE_WORKING'): Task =>
  ({ id: 't1', contextId: 'c1', status: { state }, ...(artifacts.length ? { artifacts } : {}) }) as Task;

function chunkEvent(i: number, part: Partial<Part> = {}): StreamResponse {
  return {
    artifactUpdate: {
      taskId: 't1',
      contextId: 'c1',
      append: i > 0,
      lastChunk: i === chunks.length - 1,
      artifact: {
        artifactId: 'build',
        name: 'Build output',
        parts: [
          { raw: chunks[i]!.toString('base64'), filename: 'app.tar', mediaType: 'application/x-tar', ...part } as Part,
        ],
      },
    },
  } as StreamResponse;
}

const completed: StreamResponse = {
  statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } },
} as StreamResponse;

/** Runs `body` as an activity (same workflow, run and activity id each time: a retry of one attempt). */
function asActivity<T>(body: () => Promise<T>): Promise<T> {
  return new MockActivityEnvironment({ activityId: 'track-1' }).run(body);
}

function viewWith(over: Partial<SpoolSettings> = {}, dropped = 0): TaskView {
  return new TaskView('t1', undefined, {
    spool: new ArtifactSpool(settings(over), currentSpoolScope('files'), dropped),
  });
}

async function blobs(): Promise<string[]> {
  const keys: string[] = [];
  for await (const blob of store.list()) keys.push(blob.key);
  return keys;
}

describe('ArtifactSpool: file parts to the blob store as they arrive', () => {
  it('reassembles a file streamed in chunks byte-exactly, and the result carries one small reference', async () => {
    const outcome = await asActivity(async () => {
      const view = viewWith();
      await view.take({ task: task() }, true);
      for (let i = 0; i < chunks.length; i++) await view.take(chunkEvent(i));
      await view.take(completed);
      return view.result('completed');
    });
    expect(outcome.artifacts).toHaveLength(1);
    const [part] = outcome.artifacts[0]!.parts;
    const ref = artifactRefOf(part!)!;
    expect(ref).toEqual({
      name: 'app.tar',
      mediaType: 'application/x-tar',
      size: file.length,
      sha256: sha(file),
      key: `sha256:${sha(file)}`,
    });
    expect(JSON.stringify(outcome).length).toBeLessThan(1024);
    expect(sha(await readBlob(store, ref.key))).toBe(sha(file));
    expect(await blobs()).toEqual([ref.key]);
  });

  it('resumes after a worker was killed mid-file: the next attempt replays the snapshot and the store holds one copy', async () => {
    const half = Math.floor(chunks.length / 2);
    // The first attempt saw half the chunks and died (no result).
    await asActivity(async () => {
      const view = viewWith();
      await view.take({ task: task() }, true);
      for (let i = 0; i < half; i++) await view.take(chunkEvent(i));
    });
    const written = await heldBytes();
    expect(written).toBe(half * CHUNK);
    // The retry resubscribes: the first event is the task with the parts so far, then the rest.
    const outcome = await asActivity(async () => {
      const view = viewWith();
      const soFar = Array.from(
        { length: half + 1 },
        (_, i) =>
          (chunkEvent(i) as { artifactUpdate: { artifact: { parts: Part[] } } }).artifactUpdate.artifact.parts[0]!,
      );
      await view.take({ task: task([{ artifactId: 'build', name: 'Build output', parts: soFar }]) }, true);
      for (let i = half + 1; i < chunks.length; i++) await view.take(chunkEvent(i));
      await view.take(completed);
      return view.result('completed');
    });
    const ref = artifactRefOf(outcome.artifacts[0]!.parts[0]!)!;
    expect(ref.sha256).toBe(sha(file));
    expect(await blobs()).toEqual([ref.key]);
  });

  it("drops an agent's own reference from its metadata: a stranger cannot point at another's blob", async () => {
    const forged = {
      name: 'x',
      mediaType: 'text/plain',
      size: 3,
      sha256: 'a'.repeat(64),
      key: `sha256:${'a'.repeat(64)}`,
    };
    const forgedPart = { text: 'hi', metadata: { [ARTIFACT_REF_KEY]: forged, note: 'kept' } } as Part;
    const withSpool = await asActivity(async () => {
      const view = viewWith();
      await view.take({ task: task([{ artifactId: 'a', parts: [forgedPart] }], 'TASK_STATE_COMPLETED') }, true);
      return view.result('completed');
    });
    const without = new TaskView('t1', undefined);
    without.apply({ task: task([{ artifactId: 'a', parts: [forgedPart] }], 'TASK_STATE_COMPLETED') }, true);
    for (const outcome of [withSpool, without.outcome('completed')]) {
      expect(outcome.artifacts[0]!.parts).toEqual([{ text: 'hi', metadata: { note: 'kept' } }]);
    }
  });

  it('stores a text artifact of at least the threshold, and leaves a smaller one inline', async () => {
    const long = 'line of the build log\n'.repeat(4000);
    const outcome = await asActivity(async () => {
      const view = viewWith();
      const artifacts = [
        {
          artifactId: 'log',
          name: 'build.log',
          parts: [{ text: long.slice(0, 50_000) }, { text: long.slice(50_000) }],
        },
        { artifactId: 'note', parts: [{ text: 'short' }] },
      ];
      await view.take({ task: task(artifacts as Task['artifacts'], 'TASK_STATE_COMPLETED') }, true);
      return view.result('completed');
    });
    const ref = artifactRefOf(outcome.artifacts[0]!.parts[0]!)!;
    expect(ref).toMatchObject({ name: 'build.log', mediaType: 'text/plain', size: long.length });
    expect((await readBlob(store, ref.key)).toString()).toBe(long);
    expect(outcome.artifacts[1]!.parts).toEqual([{ text: 'short' }]);
  });

  it('streams a text artifact to the store once it reaches the threshold: the view keeps its end, the result one reference', async () => {
    // Multi-byte text (é, €, 🚀) cut between characters: offsets are UTF-8 bytes.
    const line = (i: number) => `${i}: déploiement € 🚀 payment-service\n`;
    const pieces = Array.from({ length: 40 }, (_, c) =>
      Array.from({ length: 1000 }, (_, i) => line(c * 1000 + i)).join(''),
    );
    const whole = pieces.join('');
    const textEvent = (i: number): StreamResponse =>
      ({
        artifactUpdate: {
          taskId: 't1',
          contextId: 'c1',
          append: i > 0,
          lastChunk: i === pieces.length - 1,
          artifact: { artifactId: 'log', name: 'deploy.log', parts: [{ text: pieces[i], mediaType: 'text/x-log' }] },
        },
      }) as StreamResponse;
    const outcome = await asActivity(async () => {
      const view = viewWith();
      await view.take({ task: task() }, true);
      for (let i = 0; i < pieces.length; i++) {
        await view.take(textEvent(i));
        const sent = pieces.slice(0, i + 1).join('');
        // In the store from the chunk that reaches the threshold on, all of it (held text first).
        expect(await heldBytes()).toBe(Buffer.byteLength(sent) >= 64 * 1024 ? Buffer.byteLength(sent) : 0);
        expect(view.progress().artifacts[0]!.text).toBe(sent.slice(-16_384));
      }
      // What the view holds in memory is what came below the threshold and the placeholders' ends
      // (16 KiB each, with their metadata), not the text (1.9 MB); the budget counts the text.
      const held = JSON.stringify(view.artifacts.artifacts).length;
      expect(held).toBeLessThan(64 * 1024 + pieces.length * (16_384 + 200));
      expect(held).toBeLessThan(Buffer.byteLength(whole) / 2);
      expect(view.budget.used).toBeGreaterThanOrEqual(Buffer.byteLength(whole));
      await view.take(completed);
      return view.result('completed');
    });
    expect(outcome.artifacts[0]!.parts).toHaveLength(1);
    const ref = artifactRefOf(outcome.artifacts[0]!.parts[0]!)!;
    expect(ref).toMatchObject({ name: 'deploy.log', mediaType: 'text/x-log', size: Buffer.byteLength(whole) });
    expect((await readBlob(store, ref.key)).toString('utf8')).toBe(whole);
    expect(await blobs()).toEqual([ref.key]);
    expect(JSON.stringify(outcome).length).toBeLessThan(1024);
  });

  it('resumes a text artifact after a worker was killed: the snapshot replays it and the store holds one copy', async () => {
    const pieces = Array.from({ length: 8 }, (_, i) => `chunk ${i} `.repeat(4000));
    const textUpdate = (i: number): StreamResponse =>
      ({
        artifactUpdate: {
          taskId: 't1',
          contextId: 'c1',
          append: i > 0,
          artifact: { artifactId: 'log', name: 'build.log', parts: [{ text: pieces[i] }] },
        },
      }) as StreamResponse;
    await asActivity(async () => {
      const view = viewWith();
      await view.take({ task: task() }, true);
      for (let i = 0; i < 5; i++) await view.take(textUpdate(i));
    });
    expect(await heldBytes()).toBe(pieces.slice(0, 5).join('').length);
    const outcome = await asActivity(async () => {
      const view = viewWith();
      const soFar = pieces.slice(0, 6).map((text) => ({ text }));
      await view.take({ task: task([{ artifactId: 'log', name: 'build.log', parts: soFar }]) }, true);
      for (let i = 6; i < pieces.length; i++) await view.take(textUpdate(i));
      await view.take(completed);
      return view.result('completed');
    });
    const ref = artifactRefOf(outcome.artifacts[0]!.parts[0]!)!;
    expect((await readBlob(store, ref.key)).toString()).toBe(pieces.join(''));
    expect(await blobs()).toEqual([ref.key]);
  });

  it('keeps text and files of one artifact apart: the text is one reference, each file another, in their order', async () => {
    const long = 'x'.repeat(70_000);
    const outcome = await asActivity(async () => {
      const view = viewWith();
      const artifacts = [
        {
          artifactId: 'mixed',
          name: 'report',
          parts: [
            { text: 'intro ' },
            { raw: chunks[0]!.toString('base64'), filename: 'a.bin' },
            { text: long },
            { raw: chunks[1]!.toString('base64'), filename: 'b.bin' },
          ],
        },
      ];
      await view.take({ task: task(artifacts as Task['artifacts'], 'TASK_STATE_COMPLETED') }, true);
      return view.result('completed');
    });
    const refs = outcome.artifacts[0]!.parts.map((part) => artifactRefOf(part)!);
    expect(refs.map((ref) => [ref.name, ref.size])).toEqual([
      ['report', 6 + long.length],
      ['a.bin', CHUNK],
      ['b.bin', CHUNK],
    ]);
    expect((await readBlob(store, refs[0]!.key)).toString()).toBe(`intro ${long}`);
  });

  it('a round that ends while the file still arrives shows its name and size so far, and drops its session', async () => {
    const outcome: TrackOutcome = await asActivity(async () => {
      const view = viewWith();
      await view.take({ task: task() }, true);
      for (let i = 0; i < 2; i++) await view.take(chunkEvent(i));
      expect(view.progress().artifacts[0]!.files).toEqual([
        { name: 'app.tar', mediaType: 'application/x-tar', size: 2 * CHUNK },
      ]);
      return view.result('running');
    });
    expect(outcome.artifacts[0]!.parts).toEqual([
      {
        text: '',
        filename: 'app.tar',
        mediaType: 'application/x-tar',
        metadata: { [PENDING_FILE_KEY]: { name: 'app.tar', mediaType: 'application/x-tar', size: 2 * CHUNK } },
      },
    ]);
    expect(await heldBytes()).toBe(0);
    expect(await blobs()).toEqual([]);
  });

  it('an artifact replaced by a different one is stored as the new one only', async () => {
    const outcome = await asActivity(async () => {
      const view = viewWith();
      await view.take({ task: task() }, true);
      await view.take(chunkEvent(0));
      await view.take(chunkEvent(1));
      await view.take({
        artifactUpdate: {
          taskId: 't1',
          contextId: 'c1',
          artifact: {
            artifactId: 'build',
            parts: [{ raw: Buffer.from('v2').toString('base64'), filename: 'app.tar' }],
          },
        },
      } as StreamResponse);
      return view.result('completed');
    });
    const ref = artifactRefOf(outcome.artifacts[0]!.parts[0]!)!;
    expect((await readBlob(store, ref.key)).toString()).toBe('v2');
    expect(outcome.droppedStoredBytes).toBe(2 * CHUNK);
  });

  it("bounds what an agent can make us store: the delegation's stored bytes, and a hard cap per artifact", async () => {
    const overBudget = await asActivity(async () => {
      const view = viewWith({ maxStoredBytes: 3 * CHUNK });
      await view.take({ task: task() }, true);
      for (let i = 0; i < 3; i++) await view.take(chunkEvent(i));
      return view.take(chunkEvent(3)).catch((err: unknown) => err);
    });
    expect(overBudget).toBeInstanceOf(ResponseTooLargeError);
    expect(overBudget).toMatchObject({ limit: 'maxDelegationStoredBytes' });
    expect((overBudget as Error).message).toMatch(/A2A_MAX_DELEGATION_STORED_BYTES/);
    expect(await heldBytes()).toBe(3 * CHUNK);

    const overCap = await asActivity(async () => {
      const view = viewWith({ maxArtifactBytes: CHUNK + 1 });
      await view.take({ task: task() }, true);
      await view.take(chunkEvent(0));
      return view.take(chunkEvent(1)).catch((err: unknown) => err);
    });
    expect(overCap).toBeInstanceOf(ApplicationFailure);
    expect(overCap).toMatchObject({ type: 'A2A_RESULT_TOO_LARGE', nonRetryable: true });
    expect((overCap as Error).message).toMatch(/^Agent "files" sent more than 262145 bytes for the file "app.tar"/);

    const textOverCap = await asActivity(async () => {
      const view = viewWith({ maxArtifactBytes: 100_000 });
      await view.take({ task: task() }, true);
      const update = (append: boolean): StreamResponse =>
        ({
          artifactUpdate: {
            taskId: 't1',
            contextId: 'c1',
            append,
            artifact: { artifactId: 'log', name: 'build.log', parts: [{ text: 'y'.repeat(60_000) }] },
          },
        }) as StreamResponse;
      await view.take(update(false));
      return view.take(update(true)).catch((err: unknown) => err);
    });
    expect(textOverCap).toMatchObject({ type: 'A2A_RESULT_TOO_LARGE', nonRetryable: true });
    expect((textOverCap as Error).message).toMatch(/^Agent "files" sent more than .* of text in artifact "build.log"/);
  });
});

/** Bytes held by unfinished append sessions in the store's folder. */
async function heldBytes(): Promise<number> {
  const { readdir, stat } = await import('node:fs/promises');
  const sessions = join(dir, 'sessions');
  let total = 0;
  for (const name of await readdir(sessions).catch(() => [] as string[])) {
    if (name.endsWith('.part')) total += (await stat(join(sessions, name))).size;
  }
  return total;
}
