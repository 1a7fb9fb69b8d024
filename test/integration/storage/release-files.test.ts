/**
 * A release holds the files its report links (issue 22): its delegations stored them and
 * recorded themselves as holders; the release, which outlives them, records itself too (activity
 * `a2a.holdFiles`). With the delegations gone (liveness says NOT_FOUND for them, as Temporal does
 * once their retention ends), retention keeps the linked files while the release is within
 * retention, and removes a blob nothing references. Without the release's own reference the
 * linked files go (checked by hand: the test fails with `holdLinkedFiles` left out).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleAgents, type SampleAgents } from '../../../agents/index.js';
import { approveUpdate, releaseAnswerUpdate, type ReleaseResult } from '../../../contract/index.js';
import { collectGarbage, temporalLiveness, type WorkflowLiveness } from '../../../storage/retention.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { registryOf } from '../../helpers/delegations.js';
import { releaseInput, startRelease, waitForPhase, waitForQuestions } from '../../helpers/releases.js';
import { testBlobStore } from '../../helpers/test-blob-store.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';

const temporal = useTemporal();
const root = mkdtempSync(join(tmpdir(), 'a2a-release-files-'));
const { store } = testBlobStore(join(root, 'blobs'));
const DAY = 24 * 3_600_000;
let samples: SampleAgents;

beforeAll(async () => {
  samples = await startSampleAgents({ workDelayMs: 0, chunkDelayMs: 0 });
});
afterAll(async () => {
  await samples?.close();
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a release and its files', () => {
  it('keeps the files its report links after its delegations are gone, and removes an unreferenced blob', async () => {
    const client = await temporal.client();
    const taskQueue = uniqueTaskQueue('release-files');
    const worker = await temporal.worker({
      taskQueue,
      plugins: [a2aTemporalPlugin({ registry: registryOf(samples.agents), blobs: { store } })],
    });
    const { handle, result } = await worker.runUntil(async () => {
      const handle = await startRelease(client, taskQueue, releaseInput());
      await waitForQuestions(handle);
      await handle.executeUpdate(releaseAnswerUpdate, { args: [{ text: 'Node.js 24' }] });
      await waitForPhase(handle, 'awaiting-approval');
      await handle.executeUpdate(approveUpdate, { args: [{ by: 'release-files-test' }] });
      return { handle, result: (await handle.result()) as ReleaseResult };
    });
    const linked = result.report!.files.map((f) => f.ref.key);
    expect(result.report!.files.map((f) => f.ref.name).sort()).toEqual(['CHANGELOG.md', 'sbom.cdx.json']);
    const orphan = await store.put(Buffer.from('referenced by nothing'));

    // The delegations are gone (as the server says once their retention ends: NOT_FOUND); the
    // release is still there. Liveness says so for them and asks Temporal for everything else:
    // the server deletes asynchronously, and a version that waited for DeleteWorkflowExecution
    // to show failed once under load after 44 s (most likely waiting there, 30 s).
    const service = client.connection.workflowService;
    const children = new Set(result.report!.files.map((f) => f.workflowId));
    expect(children.size).toBe(2);
    const temporalSays = temporalLiveness(service);
    const isAlive: WorkflowLiveness = async (ref) => !children.has(ref.workflowId) && temporalSays(ref);

    const report = await collectGarbage({ store, isAlive, now: Date.now() + 2 * DAY });
    expect(report.removed).toContain(orphan.key);
    for (const key of linked) {
      expect(report.removed).not.toContain(key);
      expect(await store.stat(key)).toBeDefined();
    }
    expect(await isAlive({ namespace: 'default', workflowId: handle.workflowId })).toBe(true);
  });
});
