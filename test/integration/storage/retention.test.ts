/**
 * Retention on the real dev server: a blob held by an open workflow, or by a closed one within
 * the namespace's retention, is never removed; one whose workflows are gone (or that nothing
 * references) is, once it is older than the grace period; a reference without a workflow keeps
 * its blob for the untracked TTL. The command runs the same through the CLI.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../../storage/blob-store.js';
import { collectGarbage, temporalLiveness } from '../../../storage/retention.js';
import { AesGcmCodec, encryptedStack } from '../../helpers/encryption-codec.js';
import { runCliProcess } from '../../helpers/cli-process.js';
import { testBlobStore } from '../../helpers/test-blob-store.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';

const temporalTest = useTemporal();
const root = mkdtempSync(join(tmpdir(), 'a2a-retention-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const DAY = 24 * 3_600_000;

async function keys(store: BlobStore): Promise<string[]> {
  const out: string[] = [];
  for await (const blob of store.list()) out.push(blob.key);
  return out.sort();
}

describe('blob retention', () => {
  it('keeps blobs of open and retained workflows, removes those of workflows that are gone and unreferenced ones', async () => {
    const { store } = testBlobStore(join(root, 'lib'));
    const taskQueue = uniqueTaskQueue('retention');
    const { base, client, worker } = await encryptedStack(temporalTest, store, new AesGcmCodec('k'), taskQueue);
    const big = (tag: string) => `${tag} ${'z'.repeat(300_000)}`;
    // A closed workflow, within retention: its four payloads are claims on blobs.
    await worker.runUntil(() =>
      client.workflow.execute('largeRoundTrip', { taskQueue, workflowId: `${taskQueue}-done`, args: [big('done')] }),
    );
    // An open workflow: nobody runs its task queue, its input waits in the store.
    const open = await client.workflow.start('largeRoundTrip', {
      taskQueue: `${taskQueue}-idle`,
      workflowId: `${taskQueue}-open`,
      args: [big('open')],
    });
    const held = await keys(store);
    expect(held.length).toBeGreaterThanOrEqual(3);
    const gone = await store.put(Buffer.from('held by a workflow that never existed'), {
      reference: { namespace: 'default', workflowId: `${taskQueue}-gone` },
    });
    const orphan = await store.put(Buffer.from('held by nothing'));
    const untracked = await store.put(Buffer.from('from a codec server /encode'), {
      reference: { namespace: 'default' },
    });
    const isAlive = temporalLiveness(base.connection.workflowService);

    // Everything is recent: nothing goes, whatever Temporal says.
    expect((await collectGarbage({ store, isAlive })).removed).toEqual([]);

    // Two days later (grace 24 h): the dead go, the held and the untracked (TTL 30 days) stay.
    const dry = await collectGarbage({ store, isAlive, now: Date.now() + 2 * DAY, dryRun: true });
    expect(dry.removed.sort()).toEqual([gone.key, orphan.key].sort());
    expect(await keys(store)).toEqual([...held, gone.key, orphan.key, untracked.key].sort());
    const later = await collectGarbage({ store, isAlive, now: Date.now() + 2 * DAY });
    expect(later.removed.sort()).toEqual([gone.key, orphan.key].sort());
    expect(later.deadReferences).toBe(1);
    expect(await keys(store)).toEqual([...held, untracked.key].sort());

    // Past the untracked TTL, that one goes too; the workflows' blobs stay while Temporal knows them.
    const month = await collectGarbage({ store, isAlive, now: Date.now() + 31 * DAY });
    expect(month.removed).toEqual([untracked.key]);
    expect(await keys(store)).toEqual(held);

    // When Temporal cannot answer, nothing is removed.
    await expect(
      collectGarbage({
        store,
        isAlive: async () => Promise.reject(new Error('unavailable')),
        now: Date.now() + 2 * DAY,
      }),
    ).rejects.toThrow('unavailable');
    expect(await keys(store)).toEqual(held);
    await open.terminate();
  });

  it('runs as `a2a-temporal blobs gc` with the store of the environment', async () => {
    const { store, env } = testBlobStore(join(root, 'cli'));
    const dead = await store.put(Buffer.from('dead'), {
      reference: { namespace: 'default', workflowId: `never-${Date.now()}` },
    });
    const base = await temporalTest.client();
    const alive = `alive-${Date.now()}`;
    await base.workflow.start('largeRoundTrip', {
      taskQueue: uniqueTaskQueue('idle'),
      workflowId: alive,
      args: ['small'],
    });
    const kept = await store.put(Buffer.from('kept'), { reference: { namespace: 'default', workflowId: alive } });
    const run = await runCliProcess(['blobs', 'gc', '--grace', '1ms', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ blobs: 2, removed: [dead.key], deadReferences: 1 });
    expect(await keys(store)).toEqual([kept.key]);
    await base.workflow.getHandle(alive).terminate();
  });
});
