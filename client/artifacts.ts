/**
 * What `a2a-temporal artifacts` lists and saves: the files of a finished delegation, or of every
 * finished delegation of a release. One entry per file: an artifact's text parts joined (as the
 * agent streamed them), each data part as JSON, each `raw` part decoded, each `url` part (fetched
 * only on `--save`, through the agent's outbound policy), and each part whose bytes are in the
 * blob store (its {@link ArtifactRef}).
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { Artifact, Part } from '../a2a/index.js';
import { artifactRefOf, type ArtifactRef, type DelegateResult } from '../contract/index.js';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import { findTarget } from './workflow-target.js';

/** How a file is held: in the blob store, inline in history, or at the agent's URL. */
export type ArtifactFileKind = 'stored' | 'text' | 'data' | 'raw' | 'url';

/** One file of a delegation's artifacts. */
export interface ArtifactFile {
  /** The delegation it came from. */
  workflowId: string;
  agent: string;
  artifactId: string;
  /** The name to show and save under (the agent's: untrusted until sanitised). */
  name: string;
  mediaType: string;
  /** Bytes, when known without fetching (not for a `url` part). */
  size?: number;
  kind: ArtifactFileKind;
  /** `stored`: where the bytes are. */
  ref?: ArtifactRef;
  /** `url`: where the agent put the file. */
  url?: string;
  /** `text`, `data`, `raw`: the content as history holds it (`raw` is base64). */
  content?: string;
}

/** The files of `workflowId` (a delegation, or a release's delegations) and the delegations that had none to give yet. */
export interface ArtifactListing {
  files: ArtifactFile[];
  /** Delegations not finished (still running, failed, canceled): `workflowId (status)`. */
  unfinished: string[];
}

/**
 * Lists the files of a finished delegation, or of a release's finished delegations. Reads
 * results and history only, so no worker needs to run.
 * @throws CliError for an id that names nothing, or a delegation that has not completed.
 */
export async function listArtifactFiles(
  context: Pick<CliContext, 'client' | 'namespace'>,
  workflowId: string,
): Promise<ArtifactListing> {
  const target = await findTarget(context, workflowId);
  if (target.kind === 'delegation') {
    const status = target.description.status.name;
    if (status !== 'COMPLETED') {
      throw new CliError(
        `Delegation "${workflowId}" has not completed (${status.toLowerCase()}), so it has no artifacts to list; \`a2a-temporal status ${workflowId}\` shows where it is.`,
      );
    }
    return { files: filesOf((await target.handle.result()) as DelegateResult, workflowId), unfinished: [] };
  }
  const listing: ArtifactListing = { files: [], unfinished: [] };
  for (const childId of await childDelegations(target.handle)) {
    const child = context.client.workflow.getHandle(childId);
    const status = (await child.describe()).status.name;
    if (status !== 'COMPLETED') {
      listing.unfinished.push(`${childId} (${status.toLowerCase()})`);
      continue;
    }
    listing.files.push(...filesOf((await child.result()) as DelegateResult, childId));
  }
  return listing;
}

/** The delegations a release started, in the order it started them (from its history). */
async function childDelegations(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  const ids: string[] = [];
  for (const event of history.events ?? []) {
    const started = event.startChildWorkflowExecutionInitiatedEventAttributes;
    if (started?.workflowType?.name === 'delegate' && started.workflowId && !ids.includes(started.workflowId)) {
      ids.push(started.workflowId);
    }
  }
  return ids;
}

/** The files of one delegation's result. */
export function filesOf(result: Pick<DelegateResult, 'agent' | 'artifacts'>, workflowId: string): ArtifactFile[] {
  return result.artifacts.flatMap((artifact) => filesOfArtifact(artifact, { workflowId, agent: result.agent }));
}

function filesOfArtifact(artifact: Artifact, base: { workflowId: string; agent: string }): ArtifactFile[] {
  const files: ArtifactFile[] = [];
  const title = artifact.name || artifact.artifactId;
  const of = (part: Part, kind: ArtifactFileKind, fallbackType: string): ArtifactFile => ({
    ...base,
    artifactId: artifact.artifactId,
    name: part.filename || title,
    mediaType: part.mediaType || fallbackType,
    kind,
  });
  let text: ArtifactFile | undefined;
  for (const part of artifact.parts) {
    const ref = artifactRefOf(part);
    if ('text' in part && !ref) {
      // Text parts that follow each other are one file: the chunks an agent streamed.
      if (!text) files.push((text = { ...of(part, 'text', 'text/plain'), content: '' }));
      text.content += part.text;
      continue;
    }
    text = undefined;
    if (ref) files.push({ ...of(part, 'stored', ref.mediaType), name: part.filename || ref.name, size: ref.size, ref });
    else if ('raw' in part)
      files.push({ ...of(part, 'raw', 'application/octet-stream'), size: base64Size(part.raw), content: part.raw });
    else if ('url' in part) files.push({ ...of(part, 'url', 'application/octet-stream'), url: part.url });
    else if ('data' in part) {
      const json = JSON.stringify(part.data, null, 2);
      files.push({ ...of(part, 'data', 'application/json'), size: Buffer.byteLength(json), content: json });
    }
  }
  for (const file of files) if (file.kind === 'text') file.size = Buffer.byteLength(file.content!);
  return files;
}

/** Decoded length of a base64 string, without decoding it. */
function base64Size(raw: string): number {
  const clean = raw.replace(/[^A-Za-z0-9+/_-]/g, '');
  return Math.floor((clean.length * 3) / 4);
}
