/**
 * Artifact assembly: applies `artifactUpdate` events to a set of artifacts. Pure (no I/O, no
 * mutation of its inputs) and plain JSON, so the set can live in heartbeat details and
 * workflow history.
 *
 * Chunks are merged the way the official SDK's task store merges them: `append: true` adds the
 * chunk's parts as separate parts (text is not concatenated; {@link artifactText} does that),
 * anything else replaces the artifact.
 *
 * Idempotency after a resume: every chunk has a stable position — the index of its first part
 * within the artifact (the number of parts sent before it since the artifact was last
 * replaced). Applying a chunk *at* its position writes over what is there, so applying the same
 * chunk twice changes nothing; a position past the end means chunks were missed
 * ({@link ArtifactGapError}: re-read the task, whose snapshot holds every part stored so far).
 */
import { ArtifactGapError } from './errors.js';
import type { TaskArtifactUpdateEvent } from './schemas/events.js';
import type { Part } from './schemas/part.js';
import type { Artifact, Task } from './schemas/task.js';
import { isTerminalState } from './schemas/task-state.js';

/** The artifacts of one task, in first-seen order, and which of them have received their last chunk. */
export interface ArtifactSet {
  artifacts: Artifact[];
  lastChunk: Record<string, boolean>;
}

export function emptyArtifactSet(): ArtifactSet {
  return { artifacts: [], lastChunk: {} };
}

/**
 * The set of a task snapshot (e.g. the first event of a resumed stream). A terminal task's
 * artifacts are complete, so they are marked as having received their last chunk.
 */
export function artifactSetFromTask(task: Task): ArtifactSet {
  const complete = isTerminalState(task.status.state);
  const artifacts = structuredClone(task.artifacts ?? []);
  const lastChunk: Record<string, boolean> = {};
  for (const artifact of artifacts) lastChunk[artifact.artifactId] = complete;
  return { artifacts, lastChunk };
}

/** Where this chunk's first part lands if applied now: 0 for a replacing chunk, else the artifact's current part count. */
export function chunkPosition(set: ArtifactSet, update: TaskArtifactUpdateEvent): number {
  if (!update.append) return 0;
  return set.artifacts.find((a) => a.artifactId === update.artifact.artifactId)?.parts.length ?? 0;
}

/**
 * Returns a new set with `update` applied.
 *
 * - `append` false/absent: the artifact is replaced by the chunk. With `position` (always 0 for
 *   such a chunk), a replay — the artifact already starts with exactly these parts — keeps the
 *   parts that followed, so replaying the first chunk after later ones changes nothing.
 * - `append` true: the chunk's parts are added at the end, or written at `position` when given
 *   (overwriting the parts there, so a replayed chunk is a no-op).
 * - `lastChunk` is recorded per artifact; a replayed older chunk does not clear it.
 *
 * @throws ArtifactGapError when `position` is beyond the artifact's current end.
 */
export function applyArtifactUpdate(set: ArtifactSet, update: TaskArtifactUpdateEvent, position?: number): ArtifactSet {
  const incoming = update.artifact;
  const id = incoming.artifactId;
  const index = set.artifacts.findIndex((a) => a.artifactId === id);
  const existing = index === -1 ? undefined : set.artifacts[index];
  const have = existing?.parts.length ?? 0;
  const at = update.append ? (position ?? have) : 0;
  if (at < 0 || at > have || (!update.append && position !== undefined && position !== 0)) {
    throw new ArtifactGapError({ artifactId: id, position: position ?? at, have });
  }
  const count = incoming.parts.length;
  const isReplay = position !== undefined && existing !== undefined && at + count <= have;

  let next: Artifact;
  if (!existing) {
    next = structuredClone(incoming);
  } else if (!update.append) {
    next = structuredClone(incoming);
    if (isReplay && samePrefix(existing.parts, incoming.parts)) next.parts = structuredClone(existing.parts);
  } else {
    const parts: Part[] = [...existing.parts];
    incoming.parts.forEach((part, i) => {
      parts[at + i] = structuredClone(part);
    });
    next = { ...existing, ...describedBy(incoming), parts };
  }

  const artifacts = [...set.artifacts];
  if (index === -1) artifacts.push(next);
  else artifacts[index] = next;
  const last = update.lastChunk === true || (isReplay && set.lastChunk[id] === true);
  return { artifacts, lastChunk: { ...set.lastChunk, [id]: last } };
}

function samePrefix(parts: readonly Part[], prefix: readonly Part[]): boolean {
  return prefix.every((part, i) => JSON.stringify(parts[i]) === JSON.stringify(part));
}

/** The descriptive fields a chunk may (re)state; parts are handled separately. */
function describedBy(artifact: Artifact): Partial<Artifact> {
  const out: Partial<Artifact> = {};
  if (artifact.name !== undefined) out.name = artifact.name;
  if (artifact.description !== undefined) out.description = artifact.description;
  if (artifact.metadata !== undefined) out.metadata = structuredClone(artifact.metadata);
  if (artifact.extensions !== undefined) out.extensions = [...artifact.extensions];
  return out;
}

/** The artifact's text parts, concatenated: the assembled report. */
export function artifactText(artifact: Artifact): string {
  return artifact.parts.map((p) => ('text' in p ? p.text : '')).join('');
}

/** True when every artifact of the set has received its last chunk. */
export function isArtifactSetComplete(set: ArtifactSet): boolean {
  return set.artifacts.every((a) => set.lastChunk[a.artifactId] === true);
}
