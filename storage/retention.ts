/**
 * Retention: Temporal's External Storage never deletes a blob; this does. A blob is removed when
 * nothing can read it any more: no workflow that holds it is open or still within its
 * namespace's retention, and it is not recent.
 *
 * Correct: a blob is kept while ANY of its references is alive. A reference names a workflow
 * (namespace and id, recorded by the writer before the blob: storage/references.ts); it is
 * alive while Temporal still describes a workflow of that id (open, or closed and within the
 * namespace's retention: the server deletes closed workflows when retention ends, so "found" is
 * exactly "a history may still hold the claim"; a later run of the same id only keeps it longer).
 * Recent blobs and references (younger than `graceMs`) are kept whatever Temporal says, since a
 * payload is stored before the workflow that holds it is started. A reference without a workflow
 * (a codec server's `/encode`) is kept for `untrackedTtlMs`. When Temporal cannot answer, nothing
 * is removed. Removal itself follows the lock protocol of references.ts, so a writer storing the
 * same bytes at that moment never loses its blob.
 *
 * Cheap: one listing of the index and of the blobs, and one DescribeWorkflowExecution per
 * distinct workflow (cached for the run); no history is read.
 */
import { LOCK_STALE_MS, listReferences, lockPath, type BlobReference, type IndexedReference } from './references.js';
import { blobKey } from './blob-key.js';
import type { BlobStore } from './blob-store.js';
import type { WorkflowService } from '@temporalio/client';
import { GrpcStatus, grpcCode } from '../platform/grpc-status.js';

/** Whether a workflow can still hold claims: open, or closed within its namespace's retention. See [docs/files.md](../docs/files.md#retention). */
export type WorkflowLiveness = (reference: Required<BlobReference>) => Promise<boolean>;

/** What `blobs gc` keeps: the namespace, the grace period and whether it only reports. See [docs/files.md](../docs/files.md#retention). */
export interface RetentionOptions {
  /** The store to sweep. */
  store: BlobStore;
  /** Whether a workflow that holds a blob is open, or closed within the namespace's retention. */
  isAlive: WorkflowLiveness;
  /** Blobs and references younger than this are kept. @default 24 hours */
  graceMs?: number;
  /** How long a reference without a workflow keeps its blob. @default 30 days */
  untrackedTtlMs?: number;
  /** Append sessions untouched this long are abandoned and removed. @default 7 days */
  staleSessionMs?: number;
  /** Decide and report, remove nothing. */
  dryRun?: boolean;
  /** @default Date.now() */
  now?: number;
}

/** What a retention run found and removed. See [docs/files.md](../docs/files.md#retention). */
export interface RetentionReport {
  /** Blobs looked at. */
  blobs: number;
  /** Keys removed (or that would be, in a dry run). */
  removed: string[];
  /** Bytes of those. */
  removedBytes: number;
  /** References of workflows that are gone, removed from the index. */
  deadReferences: number;
  /** Abandoned append sessions removed. */
  sessions: number;
}

const HOUR = 3_600_000;

/** Removes what nothing can read any more. @throws when Temporal cannot say whether a workflow is alive (nothing further is removed). */
export async function collectGarbage(options: RetentionOptions): Promise<RetentionReport> {
  const now = options.now ?? Date.now();
  const grace = options.graceMs ?? 24 * HOUR;
  const untrackedTtl = options.untrackedTtlMs ?? 30 * 24 * HOUR;
  const { store } = options;
  const alive = new Map<string, Promise<boolean>>();
  const isAlive = (reference: Required<BlobReference>) => {
    const id = `${reference.namespace}\u0000${reference.workflowId}`;
    let answer = alive.get(id);
    if (!answer) alive.set(id, (answer = options.isAlive(reference)));
    return answer;
  };
  /** True when `ref` keeps its blob; dead tracked references are collected in `dead`. */
  const keeps = async (ref: IndexedReference, dead: IndexedReference[]) => {
    const age = now - ref.at.getTime();
    if (age < grace) return true;
    if (ref.reference.workflowId === undefined) return age < untrackedTtl;
    if (await isAlive({ namespace: ref.reference.namespace, workflowId: ref.reference.workflowId })) return true;
    dead.push(ref);
    return false;
  };

  const index = new Map<string, IndexedReference[]>();
  for await (const ref of listReferences(store.meta)) {
    const list = index.get(ref.sha256) ?? [];
    list.push(ref);
    index.set(ref.sha256, list);
  }
  const report: RetentionReport = { blobs: 0, removed: [], removedBytes: 0, deadReferences: 0, sessions: 0 };
  const dropDead = async (dead: IndexedReference[]) => {
    report.deadReferences += dead.length;
    if (!options.dryRun) for (const ref of dead) await store.meta.remove(ref.path);
  };

  for await (const blob of store.list()) {
    report.blobs += 1;
    const sha256 = blob.key.slice('sha256:'.length);
    const refs = index.get(sha256) ?? [];
    index.delete(sha256);
    const dead: IndexedReference[] = [];
    let kept = now - blob.modifiedAt.getTime() < grace;
    for (const ref of refs) if (await keeps(ref, dead)) kept = true;
    if (kept) {
      await dropDead(dead);
      continue;
    }
    if (options.dryRun) {
      report.removed.push(blob.key);
      report.removedBytes += blob.size;
      continue;
    }
    const references = await removeUnlessHeld(store, sha256, keeps);
    if (references !== false) {
      report.removed.push(blob.key);
      report.removedBytes += blob.size;
      report.deadReferences += references;
    }
  }
  // References to blobs that are gone (removed earlier, or never written): dropped once they are old.
  for (const refs of index.values()) await dropDead(refs.filter((r) => now - r.at.getTime() >= grace));
  if (!options.dryRun)
    report.sessions = await store.removeStaleSessions(new Date(now - (options.staleSessionMs ?? 7 * 24 * HOUR)));
  return report;
}

/**
 * Under the blob's removal lock: lists its references afresh (a writer may have just added one)
 * and removes the blob and its references only when none keeps it.
 * @returns how many references went with it, or false when the blob stays.
 */
async function removeUnlessHeld(
  store: BlobStore,
  sha256: string,
  keeps: (ref: IndexedReference, dead: IndexedReference[]) => Promise<boolean>,
): Promise<number | false> {
  const lock = lockPath(sha256);
  if (!(await store.meta.write(lock, JSON.stringify({ at: new Date().toISOString() }), { exclusive: true }))) {
    const held = await store.meta.read(lock);
    // A dead run's lock: taken over next time (writers already ignore it).
    if (held && Date.now() - held.modifiedAt.getTime() > LOCK_STALE_MS) await store.meta.remove(lock);
    return false;
  }
  const lockedAt = Date.now();
  try {
    const refs: IndexedReference[] = [];
    for await (const ref of listReferences(store.meta, sha256)) refs.push(ref);
    const dead: IndexedReference[] = [];
    for (const ref of refs) if (await keeps(ref, dead)) return false;
    // Writers stop waiting for a lock this old: past half of it, decide again next run.
    if (Date.now() - lockedAt > LOCK_STALE_MS / 2) return false;
    await store.delete(blobKey(sha256));
    for (const ref of refs) await store.meta.remove(ref.path);
    return refs.length;
  } finally {
    await store.meta.remove(lock);
  }
}

/**
 * Liveness from Temporal: a workflow is alive while `DescribeWorkflowExecution` finds it (its
 * latest run, open or closed within retention). NOT_FOUND (the workflow, or its namespace, is
 * gone) is dead; any other error is thrown, so that nothing is removed on a guess.
 */
export function temporalLiveness(service: WorkflowService): WorkflowLiveness {
  return async ({ namespace, workflowId }) => {
    try {
      await service.describeWorkflowExecution({ namespace, execution: { workflowId } });
      return true;
    } catch (err) {
      if (grpcCode(err) === GrpcStatus.NOT_FOUND) return false;
      throw err;
    }
  };
}
