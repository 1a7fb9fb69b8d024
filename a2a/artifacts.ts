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
import { ArtifactGapError, ResponseTooLargeError } from './errors.js';
import { DEFAULT_LIMITS, type A2ALimits } from './limits.js';
import type { TaskArtifactUpdateEvent } from './schemas/events.js';
import type { Part } from './schemas/part.js';
import type { Artifact, Task } from './schemas/task.js';
import { isTerminalState } from './schemas/task-state.js';

/** The artifacts of one task, in first-seen order, and which of them have received their last chunk. See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own). */
export interface ArtifactSet {
  /** The artifacts, in the order their first chunks arrived. */
  artifacts: Artifact[];
  /** Artifact id → whether its last chunk has arrived. */
  lastChunk: Record<string, boolean>;
}

/** The caps an assembly enforces. See [docs/security.md](../docs/security.md). */
export type ArtifactLimits = Pick<A2ALimits, 'maxArtifactsPerTask' | 'maxPartsPerArtifact'>;

/** An artifact set with no artifacts, to assemble into. */
export function emptyArtifactSet(): ArtifactSet {
  return { artifacts: [], lastChunk: {} };
}

/**
 * The set of a task snapshot (e.g. the first event of a resumed stream). A terminal task's
 * artifacts are complete, so they are marked as having received their last chunk.
 */
export function artifactSetFromTask(task: Task): ArtifactSet {
  const complete = isTerminalState(task.status.state);
  const artifacts = cloneJson(task.artifacts ?? []);
  const lastChunk: Record<string, boolean> = {};
  for (const artifact of artifacts) setFlag(lastChunk, artifact.artifactId, complete);
  return { artifacts, lastChunk };
}

/**
 * Assembles the artifacts of one task in place, chunk after chunk.
 *
 * Cost: O(1) to find an artifact (a Map from id to index), O(k) to apply a chunk of k parts
 * (parts are written at their index; nothing already assembled is copied or compared), so
 * assembling n events of k parts each is O(n·k): linear in what the agent sent. A chunk that
 * would push the task past `maxArtifactsPerTask` artifacts, or an artifact past
 * `maxPartsPerArtifact` parts, throws a ResponseTooLargeError and changes nothing.
 *
 * {@link set} is a live view, not a copy: read it, store it, but do not change it.
 * See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own).
 */
export class ArtifactAssembler {
  /** Elementary steps taken so far (artifact lookups, part writes, part comparisons): the cost that the linearity test counts. */
  steps = 0;
  private readonly limits: ArtifactLimits;
  private current: ArtifactSet;
  private index = new Map<string, number>();

  /** Starts from `from` (adopted as is, not copied: the caller hands it over) or from nothing. */
  constructor(limits: Partial<ArtifactLimits> = {}, from: ArtifactSet = emptyArtifactSet()) {
    this.limits = {
      maxArtifactsPerTask: limits.maxArtifactsPerTask ?? DEFAULT_LIMITS.maxArtifactsPerTask,
      maxPartsPerArtifact: limits.maxPartsPerArtifact ?? DEFAULT_LIMITS.maxPartsPerArtifact,
    };
    this.current = from;
    this.reindex();
  }

  /** The artifacts assembled so far. */
  get set(): ArtifactSet {
    return this.current;
  }

  /** Replaces everything with the artifacts of a task snapshot (see {@link artifactSetFromTask}). O(size of the task's artifacts). */
  snapshot(task: Task): void {
    this.current = artifactSetFromTask(task);
    this.reindex();
  }

  /** Where this chunk's first part lands if applied now: 0 for a replacing chunk, else the artifact's part count. O(1). */
  position(update: TaskArtifactUpdateEvent): number {
    if (!update.append) return 0;
    return this.find(update.artifact.artifactId)?.parts.length ?? 0;
  }

  /**
   * Applies `update` (see {@link applyArtifactUpdate} for the rules).
   *
   * @throws ArtifactGapError when `position` is beyond the artifact's current end.
   * @throws ResponseTooLargeError when a cap would be passed.
   */
  apply(update: TaskArtifactUpdateEvent, position?: number): void {
    const incoming = update.artifact;
    const id = incoming.artifactId;
    const existing = this.find(id);
    const have = existing?.parts.length ?? 0;
    const at = update.append ? (position ?? have) : 0;
    if (at < 0 || at > have || (!update.append && position !== undefined && position !== 0)) {
      throw new ArtifactGapError({ artifactId: id, position: position ?? at, have });
    }
    const count = incoming.parts.length;
    if ((update.append ? Math.max(have, at + count) : count) > this.limits.maxPartsPerArtifact) {
      this.tooLarge('maxPartsPerArtifact');
    }
    const isReplay = position !== undefined && existing !== undefined && at + count <= have;

    if (!existing) {
      if (this.current.artifacts.length >= this.limits.maxArtifactsPerTask) this.tooLarge('maxArtifactsPerTask');
      this.index.set(id, this.current.artifacts.length);
      this.current.artifacts.push(cloneJson(incoming));
      this.steps += count;
    } else if (!update.append) {
      const next = cloneJson(incoming);
      if (isReplay && this.samePrefix(existing.parts, incoming.parts)) next.parts = existing.parts;
      this.current.artifacts[this.index.get(id)!] = next;
      this.steps += count;
    } else {
      Object.assign(existing, describedBy(incoming));
      for (let i = 0; i < count; i++) existing.parts[at + i] = cloneJson(incoming.parts[i]!);
      this.steps += count;
    }
    setFlag(this.current.lastChunk, id, update.lastChunk === true || (isReplay && this.current.lastChunk[id] === true));
  }

  private find(id: string): Artifact | undefined {
    this.steps += 1;
    const at = this.index.get(id);
    return at === undefined ? undefined : this.current.artifacts[at];
  }

  private reindex(): void {
    this.index = new Map(this.current.artifacts.map((a, i) => [a.artifactId, i]));
  }

  private samePrefix(parts: readonly Part[], prefix: readonly Part[]): boolean {
    this.steps += prefix.length;
    return prefix.every((part, i) => JSON.stringify(parts[i]) === JSON.stringify(part));
  }

  private tooLarge(limit: keyof ArtifactLimits): never {
    throw new ResponseTooLargeError({ limit, max: this.limits[limit] });
  }
}

/** Where this chunk's first part lands if applied now: 0 for a replacing chunk, else the artifact's current part count. */
export function chunkPosition(set: ArtifactSet, update: TaskArtifactUpdateEvent): number {
  if (!update.append) return 0;
  return set.artifacts.find((a) => a.artifactId === update.artifact.artifactId)?.parts.length ?? 0;
}

/**
 * Returns a new set with `update` applied, leaving `set` untouched. Costs a copy of the set's
 * artifact list and of the touched artifact's parts, O(artifacts + parts) per call: fine for a
 * few events; to assemble a stream, keep one {@link ArtifactAssembler} (linear in the events).
 *
 * - `append` false/absent: the artifact is replaced by the chunk. With `position` (always 0 for
 *   such a chunk), a replay — the artifact already starts with exactly these parts — keeps the
 *   parts that followed, so replaying the first chunk after later ones changes nothing.
 * - `append` true: the chunk's parts are added at the end, or written at `position` when given
 *   (overwriting the parts there, so a replayed chunk is a no-op).
 * - `lastChunk` is recorded per artifact; a replayed older chunk does not clear it.
 *
 * @throws ArtifactGapError when `position` is beyond the artifact's current end.
 * @throws ResponseTooLargeError past `maxArtifactsPerTask` artifacts or `maxPartsPerArtifact` parts.
 */
export function applyArtifactUpdate(
  set: ArtifactSet,
  update: TaskArtifactUpdateEvent,
  position?: number,
  limits: Partial<ArtifactLimits> = {},
): ArtifactSet {
  const id = update.artifact.artifactId;
  const copy: ArtifactSet = {
    artifacts: set.artifacts.map((a) => (a.artifactId === id ? { ...a, parts: [...a.parts] } : a)),
    lastChunk: { ...set.lastChunk },
  };
  const assembler = new ArtifactAssembler(limits, copy);
  assembler.apply(update, position);
  return assembler.set;
}

/**
 * A deep copy of a JSON value (what every artifact is: it was parsed from JSON and validated).
 * Several times faster than `structuredClone` on the small objects of a stream's chunks.
 */
function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const copy = cloneJson((value as Record<string, unknown>)[key]);
    setFlag(out, key, copy);
  }
  return out as T;
}

/** Sets an own property, even for an id such as `__proto__` (whose assignment would set the prototype). */
function setFlag<V>(flags: Record<string, V>, id: string, value: V): void {
  if (id === '__proto__')
    Object.defineProperty(flags, id, { value, writable: true, enumerable: true, configurable: true });
  else flags[id] = value;
}

/** The descriptive fields a chunk may (re)state; parts are handled separately. */
function describedBy(artifact: Artifact): Partial<Artifact> {
  const out: Partial<Artifact> = {};
  if (artifact.name !== undefined) out.name = artifact.name;
  if (artifact.description !== undefined) out.description = artifact.description;
  if (artifact.metadata !== undefined) out.metadata = cloneJson(artifact.metadata);
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
