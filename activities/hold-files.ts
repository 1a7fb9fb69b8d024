import { Context } from '@temporalio/activity';
import type { ActivityDeps } from './deps.js';

export interface HoldFilesInput {
  /** Blob keys (`sha256:<hex>`) of the files the calling workflow links: ArtifactRefs of its children's results. */
  keys: string[];
}

const KEY = /^sha256:[0-9a-f]{64}$/;

/**
 * Records the calling workflow as a holder of each file it links (`addReference`, the index of
 * storage/references.ts), so retention keeps the files while that workflow is open or within its
 * namespace's retention, however long before it the delegations that stored them are gone. The
 * release calls it for the files its report links. Idempotent (a reference is one object per
 * blob and workflow); a worker without a blob store has no files to hold.
 * @returns how many files it holds.
 */
export async function holdFiles(deps: ActivityDeps, { keys }: HoldFilesInput): Promise<number> {
  const store = deps.artifacts?.store;
  if (!store) return 0;
  const info = Context.current().info;
  const workflowId = info.workflowExecution?.workflowId;
  if (!workflowId) return 0;
  const reference = { namespace: info.workflowNamespace ?? 'default', workflowId };
  const held = [...new Set(keys.filter((key) => KEY.test(key)))];
  for (const key of held) await store.addReference(key, reference);
  return held.length;
}
