/**
 * The reference index that retention relies on, kept in the store itself next to the blobs:
 *
 * ```
 * meta/refs/<sha256>/<id>   one per (namespace, workflow) that holds the blob: {"namespace","workflowId"}
 * meta/locks/<sha256>       held by retention while it decides about and removes one blob
 * ```
 *
 * The protocol that makes removal safe against a writer storing the same bytes at that moment
 * (content addressing means a new payload can land on an old blob):
 *
 * - a writer records its reference, THEN waits while the blob's removal lock is held (a lock
 *   younger than {@link LOCK_STALE_MS}), THEN writes the blob (which recreates it when it was
 *   just removed);
 * - retention takes the lock (an exclusive create), THEN lists the blob's references afresh,
 *   removes the blob only if none is alive and none is recent, THEN releases the lock.
 *
 * Whichever comes first, the writer's reference is seen by retention or the writer's write comes
 * after the removal. A lock left by a retention run that died is ignored after
 * {@link LOCK_STALE_MS}; retention gives up on a blob whose lock it has held for half of that.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/** Who holds a blob: a workflow of a namespace (payloads in its history, artifacts in its result). See [docs/files.md](../docs/files.md#retention). */
export interface BlobReference {
  /** The workflow's namespace. */
  namespace: string;
  /** Absent: written for no workflow we know (a codec server's `/encode`): kept for the untracked TTL. */
  workflowId?: string;
}

/** Small named objects beside the blobs (each driver keeps them its own way). See [docs/files.md](../docs/files.md#retention). */
export interface MetaObjects {
  /** Writes `body` at `path`; with `exclusive`, false when something is there already. */
  write(path: string, body: string, options?: { exclusive?: boolean }): Promise<boolean>;
  /** Every object under `prefix`, with its path (below meta/) and when it was written. */
  list(prefix: string): AsyncIterable<{
    /** The object's path below meta/. */
    path: string;
    /** When it was written. */
    modifiedAt: Date;
  }>;
  /** Reads a metadata object, or undefined when there is none. */
  read(path: string): Promise<
    | {
        /** What the object holds. */
        body: string;
        /** When it was written. */
        modifiedAt: Date;
      }
    | undefined
  >;
  /** Removes a metadata object. */
  remove(path: string): Promise<void>;
}

/** A removal lock older than this is a dead retention run's: writers no longer wait for it. */
export const LOCK_STALE_MS = 2 * 60_000;

const POLL_MS = 100;

export function referencePath(sha256: string, reference: BlobReference): string {
  const id = createHash('sha256')
    .update(`${reference.namespace}\u0000${reference.workflowId ?? ''}`)
    .digest('hex')
    .slice(0, 32);
  return `refs/${sha256}/${id}`;
}

export function lockPath(sha256: string): string {
  return `locks/${sha256}`;
}

/**
 * The writer's side: records `reference` (when given; rewriting it makes it recent again), then
 * waits until no live removal lock is held on the blob. Call it after hashing, before the blob
 * is written.
 */
export async function protectBlob(
  meta: MetaObjects,
  sha256: string,
  reference: BlobReference | undefined,
  signal?: AbortSignal,
): Promise<void> {
  if (reference) await meta.write(referencePath(sha256, reference), JSON.stringify(reference));
  for (;;) {
    const lock = await meta.read(lockPath(sha256));
    if (!lock || Date.now() - lock.modifiedAt.getTime() > LOCK_STALE_MS) return;
    await sleep(POLL_MS, undefined, signal ? { signal } : {});
  }
}

/** A reference as the index holds it. */
export interface IndexedReference {
  sha256: string;
  path: string;
  reference: BlobReference;
  /** When it was (last) recorded. */
  at: Date;
}

/** The references of one blob, or of all blobs (`sha256` undefined). Unreadable entries are skipped. */
export async function* listReferences(meta: MetaObjects, sha256?: string): AsyncIterable<IndexedReference> {
  for await (const entry of meta.list(sha256 ? `refs/${sha256}/` : 'refs/')) {
    const digest = /^refs\/([0-9a-f]{64})\/[0-9a-f]{32}$/.exec(entry.path)?.[1];
    if (!digest) continue;
    const read = await meta.read(entry.path);
    if (!read) continue;
    try {
      const parsed = JSON.parse(read.body) as BlobReference;
      if (typeof parsed.namespace !== 'string') continue;
      yield {
        sha256: digest,
        path: entry.path,
        reference: {
          namespace: parsed.namespace,
          ...(typeof parsed.workflowId === 'string' ? { workflowId: parsed.workflowId } : {}),
        },
        at: read.modifiedAt,
      };
    } catch {
      continue;
    }
  }
}
