/**
 * Artifacts to the blob store as they arrive (issue 22). The tracking activities hand every
 * artifact chunk and task snapshot through an {@link ArtifactSpool} before it is assembled:
 *
 * - a `raw` (file) part's bytes are appended to an append session of the blob store, in order,
 *   and the part is replaced by a small placeholder; consecutive `raw` parts of an artifact are
 *   one file (the chunks an agent streamed with `append`), unless a part names another filename;
 * - when the round ends the placeholders of each file become one part carrying its
 *   {@link ArtifactRef} (the session finalized into a content-addressed blob); a round that ends
 *   with the task still running drops its sessions and shows each file's name and size so far;
 * - a text artifact is held inline until its text reaches the threshold; from then on its text
 *   goes to an append session of its own as it arrives (what was held first), each text part
 *   replaced by a placeholder that keeps the end of its text (the live view shows it), and the
 *   round's outcome carries one part with the text's {@link ArtifactRef};
 * - metadata under our reserved keys (`a2aTemporal.*`) is dropped from every part an agent
 *   sends: a reference in a result was always written by us.
 *
 * Resuming after a worker was killed: the new attempt's first read of the task (a stream's first
 * event, a GetTask) replays the artifact's parts from the start; each chunk is appended at its
 * offset and the session skips what it already holds, so the file is written once, byte-exactly.
 * A session belongs to one activity (its workflow and activity id), so a retry finds it again and
 * another round never mixes with it.
 *
 * Memory: one chunk (the decoded part) at a time; the S3 session buffers up to one part. A part
 * read from an event too large to hold (a resumed stream's snapshot) arrives spilled to a local
 * file (see a2a/spilled-bytes.ts) and is copied to its session in pieces of 1 MiB.
 */
import { createHash } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { formatBytes } from '../a2a/limits.js';
import type { Artifact, Part, Task, TaskArtifactUpdateEvent } from '../a2a/index.js';
import { spilledBytesOf, type SpilledBytes } from '../a2a/spilled-bytes.js';
import { ARTIFACT_REF_KEY, PENDING_FILE_KEY, type ArtifactRef } from '../contract/artifact-ref.js';
import { FailureType } from '../contract/failure-types.js';
import { agentLabel } from '../contract/telemetry.js';
import type { AppendSession, BlobStore } from '../storage/blob-store.js';
import type { BlobReference } from '../storage/references.js';
import { ByteBudget, SPOOLED_KEY } from './byte-budget.js';

/** How much of a stored text part its placeholder keeps: heartbeats and `watch` show a text's end. */
const TEXT_TAIL_CHARS = 16_384;
const RESERVED_PREFIX = 'a2aTemporal.';

/** How the spool stores. */
export interface SpoolSettings {
  store: BlobStore;
  /** A text artifact is stored once its text reaches this many bytes (UTF-8). @default 65536 */
  textThresholdBytes: number;
  /** Bytes one delegation may make us store (`A2A_MAX_DELEGATION_STORED_BYTES`). */
  maxStoredBytes: number;
  /** The hard cap on one stored file (`A2A_MAX_ARTIFACT_BYTES`): past it, `A2A_RESULT_TOO_LARGE`. */
  maxArtifactBytes: number;
}

/** Where this activity's sessions live and who holds their blobs. */
export interface SpoolScope {
  agent: string;
  /** Unique per activity and stable across its attempts (workflow, run, activity id). */
  sessionPrefix: string;
  reference: BlobReference;
}

/** A stored chunk as its placeholder describes it: of a file, or of the artifact's text. */
interface Placeholder {
  /** The file's index; -1: the artifact's text. */
  file: number;
  start: number;
  size: number;
  /** First 16 hex of the chunk's SHA-256: a replayed chunk has the same placeholder, a changed one another. */
  sha: string;
}

interface FileState {
  /** The filename the agent gave on the file's first part ('' when none). */
  filename: string;
  name: string;
  mediaType: string;
  session?: AppendSession;
  /** Bytes written so far (the end of the last chunk). */
  end: number;
}

/** An artifact's text: held inline below the threshold, then in a session of its own. */
interface TextState {
  /** UTF-8 bytes of the artifact's text so far. */
  bytes: number;
  /** The text while it is below the threshold, kept to be stored first once it reaches it. */
  inline: string[];
  /** The first text part's media type. */
  mediaType: string;
  session?: AppendSession;
}

interface ArtifactState {
  artifactId: string;
  files: FileState[];
  text: TextState;
  /** Per part index: the stored chunk's placeholder, or undefined for an inline part. */
  slots: (Placeholder | undefined)[];
}

/** The scope of the current activity: its workflow's and its own ids, and the reference for retention. */
export function currentSpoolScope(agent: string): SpoolScope {
  const info = Context.current().info;
  const workflowId = info.workflowExecution?.workflowId ?? '';
  const runId = info.workflowExecution?.runId ?? '';
  const namespace = info.workflowNamespace ?? 'default';
  return {
    agent,
    sessionPrefix: `artifact/${namespace}/${workflowId}/${runId}/${info.activityId}`,
    reference: workflowId ? { namespace, workflowId } : { namespace },
  };
}

export class ArtifactSpool {
  /** Bytes this delegation stored (and dropped by replacing) against {@link SpoolSettings.maxStoredBytes}. */
  readonly budget: ByteBudget;
  private readonly artifacts = new Map<string, ArtifactState>();

  constructor(
    private readonly settings: SpoolSettings,
    private readonly scope: SpoolScope,
    droppedStoredBytes = 0,
  ) {
    this.budget = new ByteBudget(settings.maxStoredBytes, droppedStoredBytes, 'maxDelegationStoredBytes');
  }

  /**
   * An artifact chunk, landing at part `position`: its file parts written to the store, returned
   * with placeholders instead (what the assembler keeps).
   * @throws ResponseTooLargeError past the stored-bytes budget; ApplicationFailure past the per-artifact cap
   */
  async update(update: TaskArtifactUpdateEvent, position: number): Promise<TaskArtifactUpdateEvent> {
    const artifact = withoutReservedMetadata(update.artifact);
    const state = this.artifacts.get(artifact.artifactId);
    const parts = await this.intake(artifact, state, update.append ? position : 0, {
      replacing: !update.append,
      snapshot: false,
    });
    return { ...update, artifact: { ...artifact, parts } };
  }

  /**
   * A task read in full (a snapshot): every artifact's file parts written (what the store already
   * holds is skipped), returned with placeholders. `ours`: we read it (GetTask, a stream's first
   * event), so its files are what the delegation stores now.
   */
  async task(task: Task, ours: boolean): Promise<Task> {
    const artifacts = (task.artifacts ?? []).map(withoutReservedMetadata);
    const seen = new Set(artifacts.map((a) => a.artifactId));
    for (const state of [...this.artifacts.values()]) if (!seen.has(state.artifactId)) await this.reset(state);
    if (ours) this.budget.rebase(sumRaw(artifacts));
    else this.budget.replace(this.budget.heldBytes, sumRaw(artifacts));
    const out: Artifact[] = [];
    for (const artifact of artifacts) {
      const parts = await this.intake(artifact, this.artifacts.get(artifact.artifactId), 0, {
        replacing: true,
        snapshot: true,
      });
      out.push({ ...artifact, parts });
    }
    return { ...task, ...(task.artifacts ? { artifacts: out } : {}) };
  }

  /**
   * The artifacts for the round's outcome: each stored file's placeholders become one part with
   * its reference (`final`), or with its name and size so far (the task still runs: the sessions
   * are dropped, the next round reads the task afresh); large text artifacts stored.
   */
  async seal(artifacts: readonly Artifact[], final: boolean): Promise<Artifact[]> {
    const out: Artifact[] = [];
    for (const artifact of artifacts) {
      const state = this.artifacts.get(artifact.artifactId);
      // The stored text takes the place of the first text part; the other parts keep their order.
      const text = state?.text.session ? await this.sealText(artifact, state) : undefined;
      const parts: Part[] = [];
      let last = -1;
      let textPlaced = false;
      for (const part of artifact.parts) {
        const slot = placeholderOf(part);
        if (text && 'text' in part && (!slot || slot.file === -1)) {
          if (!textPlaced) parts.push(text);
          textPlaced = true;
          continue;
        }
        if (!slot || !state) {
          parts.push(part);
          continue;
        }
        if (slot.file === last) continue;
        last = slot.file;
        parts.push(await this.sealFile(state, slot.file, final));
      }
      out.push({ ...artifact, parts });
    }
    if (!final) for (const state of [...this.artifacts.values()]) await this.reset(state);
    return out;
  }

  /** Name, type and size of each file of `artifactId` so far (heartbeats, `watch`). */
  filesOf(artifactId: string): { name: string; mediaType: string; size: number }[] {
    return (this.artifacts.get(artifactId)?.files ?? []).map((f) => ({
      name: f.name,
      mediaType: f.mediaType,
      size: f.end,
    }));
  }

  private async intake(
    artifact: Artifact,
    known: ArtifactState | undefined,
    at: number,
    how: { replacing: boolean; snapshot: boolean },
  ): Promise<Part[]> {
    const chunks = artifact.parts.map(chunkOf);
    let state = known;
    if (state && how.replacing) {
      // A replay (the same chunks again, e.g. a stream's snapshot after the events we saw) keeps
      // what is stored; anything else replaces the artifact: its sessions start over.
      const replay = artifact.parts.every((part, i) =>
        samePlaceholder(state!.slots[i], chunks[i] ?? (state!.slots[i]?.file === -1 ? textChunkOf(part) : undefined)),
      );
      const complete = !how.snapshot || artifact.parts.length >= state.slots.length;
      if (!replay || !complete) {
        if (!how.snapshot) this.budget.replace(storedBytes(state), sumRaw([artifact]));
        await this.reset(state);
        state = undefined;
      } else if (!how.snapshot) return placeholders(artifact.parts, state.slots);
      // A snapshot replays the text from its start too: its session skips what it holds.
      else state.text = { ...newText(), ...(state.text.session ? { session: state.text.session } : {}) };
    } else if (!how.snapshot) {
      this.budget.hold(sumRaw([artifact]));
    }
    if (!state) {
      state = { artifactId: artifact.artifactId, files: [], text: newText(), slots: [] };
      this.artifacts.set(artifact.artifactId, state);
    }
    const parts: Part[] = [];
    for (let i = 0; i < artifact.parts.length; i++) {
      const part = artifact.parts[i]!;
      const bytes = chunks[i];
      if (!bytes && 'text' in part) {
        parts.push(await this.takeText(artifact, state, at + i, part));
        continue;
      }
      if (!bytes) {
        state.slots[at + i] = undefined;
        parts.push(part);
        continue;
      }
      const slot = this.slotFor(artifact, state, at + i, part, bytes);
      await this.write(state, slot, bytes);
      state.slots[at + i] = slot;
      parts.push(placeholderPart(part, slot));
    }
    return parts;
  }

  /** Where the chunk at part `index` goes: on the previous part's file, or a new one. */
  private slotFor(artifact: Artifact, state: ArtifactState, index: number, part: Part, bytes: Chunk): Placeholder {
    const previous = index > 0 ? state.slots[index - 1] : undefined;
    const continues =
      previous !== undefined &&
      previous.file >= 0 &&
      (!part.filename || part.filename === state.files[previous.file]!.filename);
    const file = continues ? previous.file : state.files.length;
    const start = continues ? previous.start + previous.size : 0;
    if (!continues) {
      state.files.push({
        filename: part.filename ?? '',
        name: part.filename || artifact.name || artifact.artifactId,
        mediaType: part.mediaType || 'application/octet-stream',
        end: 0,
      });
    }
    if (start + bytes.size > this.settings.maxArtifactBytes) {
      throw ApplicationFailure.nonRetryable(
        `Agent "${agentLabel(this.scope.agent)}" sent more than ${formatBytes(this.settings.maxArtifactBytes)} for the file "${state.files[file]!.name.slice(0, 100)}", the most one artifact may hold here (A2A_MAX_ARTIFACT_BYTES).`,
        FailureType.resultTooLarge,
      );
    }
    return { file, start, size: bytes.size, sha: bytes.sha };
  }

  private async write(state: ArtifactState, slot: Placeholder, bytes: Chunk): Promise<void> {
    const file = state.files[slot.file]!;
    const session = (file.session ??= await this.settings.store.appendSession(this.sessionId(state, slot.file), {
      reference: this.scope.reference,
    }));
    await this.appendChunk(session, slot, bytes);
    file.end = Math.max(file.end, slot.start + slot.size);
  }

  private async appendChunk(session: AppendSession, slot: Placeholder, bytes: Chunk): Promise<void> {
    const signal = Context.current().cancellationSignal;
    // The session skips what it holds already (a resumed attempt's replay); a spilled chunk is not
    // even read that far (a resumed snapshot holds everything the killed attempt stored).
    const from = bytes.spilled ? Math.min(bytes.size, Math.max(0, (await session.held()) - slot.start)) : 0;
    let at = slot.start + from;
    for await (const piece of bytes.pieces(from)) {
      await session.append(at, piece, { signal });
      at += piece.byteLength;
    }
  }

  private sessionId(state: ArtifactState, file: number | 'text'): string {
    const id = createHash('sha256').update(state.artifactId).digest('hex').slice(0, 32);
    return `${this.scope.sessionPrefix}/${id}/${file}`;
  }

  private async sealFile(state: ArtifactState, index: number, final: boolean): Promise<Part> {
    const file = state.files[index]!;
    const described = { ...(file.filename ? { filename: file.filename } : {}), mediaType: file.mediaType };
    if (!final || !file.session) {
      const pending = { name: file.name, mediaType: file.mediaType, size: file.end };
      return { text: '', ...described, metadata: { [PENDING_FILE_KEY]: pending } };
    }
    const blob = await file.session.finalize({ signal: Context.current().cancellationSignal });
    if (blob.size !== file.end) {
      throw new Error(`The stored file "${file.name}" holds ${blob.size} bytes where ${file.end} were written.`);
    }
    const ref: ArtifactRef = { name: file.name, mediaType: file.mediaType, ...blob };
    return { text: '', ...described, metadata: { [ARTIFACT_REF_KEY]: ref } };
  }

  /**
   * A text part at part `index`: held inline while the artifact's text is below the threshold;
   * once it reaches it, what was held and every later part go to the text's session (at their
   * offsets: a replay skips what the session holds), and the part becomes a placeholder with the
   * end of its text.
   */
  private async takeText(
    artifact: Artifact,
    state: ArtifactState,
    index: number,
    part: Extract<Part, { text: string }>,
  ): Promise<Part> {
    const text = state.text;
    if (text.bytes === 0 && text.inline.length === 0) text.mediaType = part.mediaType || 'text/plain';
    const chunk = textChunkOf(part)!;
    if (!text.session && text.bytes + chunk.size < this.settings.textThresholdBytes) {
      // Below the threshold a spilled text (from an event read as it arrived) is read back: it is small.
      const inline = chunk.spilled ? { ...withoutSpill(part), text: await readText(chunk, 0) } : part;
      text.inline.push(inline.text);
      text.bytes += chunk.size;
      state.slots[index] = undefined;
      return inline;
    }
    if (text.bytes + chunk.size > this.settings.maxArtifactBytes) {
      throw ApplicationFailure.nonRetryable(
        `Agent "${agentLabel(this.scope.agent)}" sent more than ${formatBytes(this.settings.maxArtifactBytes)} of text in artifact "${(artifact.name || artifact.artifactId).slice(0, 100)}", the most one artifact may hold here (A2A_MAX_ARTIFACT_BYTES).`,
        FailureType.resultTooLarge,
      );
    }
    const held = text.session ? [] : text.inline.map((piece) => Buffer.from(piece, 'utf8'));
    const session = (text.session ??= await this.settings.store.appendSession(this.sessionId(state, 'text'), {
      reference: this.scope.reference,
    }));
    const signal = Context.current().cancellationSignal;
    let at = 0;
    for (const piece of held) {
      await session.append(at, piece, { signal });
      at += piece.byteLength;
    }
    text.inline = [];
    const slot: Placeholder = { file: -1, start: text.bytes, size: chunk.size, sha: chunk.sha };
    await this.appendChunk(session, slot, chunk);
    text.bytes += chunk.size;
    state.slots[index] = slot;
    return {
      ...placeholderPart(part, slot),
      text: chunk.spilled ? await tailOf(chunk) : copyOf(part.text.slice(-TEXT_TAIL_CHARS)),
    };
  }

  /** The artifact's stored text as one part with its reference (a running round's too: its text so far). */
  private async sealText(artifact: Artifact, state: ArtifactState): Promise<Part> {
    const text = state.text;
    const blob = await text.session!.finalize({ signal: Context.current().cancellationSignal });
    if (blob.size !== text.bytes) {
      throw new Error(
        `The stored text of "${artifact.artifactId}" holds ${blob.size} bytes where ${text.bytes} were written.`,
      );
    }
    const ref: ArtifactRef = { name: artifact.name || artifact.artifactId, mediaType: text.mediaType, ...blob };
    return { text: '', mediaType: text.mediaType, metadata: { [ARTIFACT_REF_KEY]: ref } };
  }

  /** Drops what the artifact's sessions hold and forgets it. */
  private async reset(state: ArtifactState): Promise<void> {
    for (const [index, file] of state.files.entries()) {
      const session =
        file.session ??
        (await this.settings.store.appendSession(this.sessionId(state, index), { reference: this.scope.reference }));
      await session.abort();
    }
    await state.text.session?.abort();
    this.artifacts.delete(state.artifactId);
  }
}

/** The artifact without the agent's metadata under our reserved keys (on it and on each part). */
export function withoutReservedMetadata(artifact: Artifact): Artifact {
  const parts = artifact.parts.map((part) => {
    const metadata = cleanMetadata(part.metadata);
    if (metadata === part.metadata) return part;
    const { metadata: _dropped, ...rest } = part;
    return (metadata ? { ...rest, metadata } : rest) as Part;
  });
  const metadata = cleanMetadata(artifact.metadata);
  const { metadata: _dropped, ...rest } = artifact;
  return { ...rest, ...(metadata ? { metadata } : {}), parts };
}

function cleanMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!metadata || !Object.keys(metadata).some((key) => key.startsWith(RESERVED_PREFIX))) return metadata;
  const kept = Object.fromEntries(Object.entries(metadata).filter(([key]) => !key.startsWith(RESERVED_PREFIX)));
  return Object.keys(kept).length ? kept : undefined;
}

function placeholderPart(part: Part, slot: Placeholder): Part {
  return {
    // A text's placeholder keeps the text's end (takeText reads a spilled one's).
    text: slot.file === -1 && 'text' in part ? copyOf(part.text.slice(-TEXT_TAIL_CHARS)) : '',
    ...(part.filename ? { filename: part.filename } : {}),
    ...(part.mediaType ? { mediaType: part.mediaType } : {}),
    metadata: { [SPOOLED_KEY]: slot },
  };
}

function placeholderOf(part: Part): Placeholder | undefined {
  return part.metadata?.[SPOOLED_KEY] as Placeholder | undefined;
}

function placeholders(parts: readonly Part[], slots: readonly (Placeholder | undefined)[]): Part[] {
  return parts.map((part, i) => (slots[i] ? placeholderPart(part, slots[i]) : part));
}

/** A file part's bytes: decoded from its `raw`, or spilled from an event too large to hold. */
interface Chunk {
  size: number;
  sha: string;
  /** From byte `from` on. */
  pieces(from: number): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** Spilled to a local file: cheaper to ask the session what it holds than to read it all again. */
  spilled: boolean;
}

function chunkOf(part: Part): Chunk | undefined {
  if (!('raw' in part)) return undefined;
  const spilled: SpilledBytes | undefined = spilledBytesOf(part);
  if (spilled) return { size: spilled.size, sha: spilled.sha, pieces: (from) => spilled.read(from), spilled: true };
  const bytes = Buffer.from(part.raw, 'base64');
  return { size: bytes.byteLength, sha: shortSha(bytes), pieces: () => [bytes], spilled: false };
}

/** A text part's text as UTF-8: from its string, or spilled from an event too large to hold. */
function textChunkOf(part: Part): Chunk | undefined {
  if (!('text' in part)) return undefined;
  const spilled = spilledBytesOf(part);
  if (spilled) return { size: spilled.size, sha: spilled.sha, pieces: (from) => spilled.read(from), spilled: true };
  const bytes = Buffer.from(part.text, 'utf8');
  return { size: bytes.byteLength, sha: shortSha(bytes), pieces: () => [bytes], spilled: false };
}

async function readText(chunk: Chunk, from: number): Promise<string> {
  const pieces: Uint8Array[] = [];
  for await (const piece of chunk.pieces(from)) pieces.push(piece);
  const bytes = Buffer.concat(pieces);
  // Read from the middle of the text: skip the rest of a character cut in two.
  let start = 0;
  if (from > 0) while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  return bytes.toString('utf8', start);
}

/** The end of a spilled text, as a placeholder keeps it. */
async function tailOf(chunk: Chunk): Promise<string> {
  const text = await readText(chunk, Math.max(0, chunk.size - 4 * TEXT_TAIL_CHARS));
  return copyOf(text.slice(-TEXT_TAIL_CHARS));
}

/** A flat copy of a string: a slice of a large string would keep all of it alive. */
function copyOf(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The part without the spilled bytes attached to it (they are gone once the event is handled). */
function withoutSpill<T extends Part>(part: T): T {
  return Object.fromEntries(Object.entries(part)) as T;
}

function newText(): TextState {
  return { bytes: 0, inline: [], mediaType: 'text/plain' };
}

function samePlaceholder(slot: Placeholder | undefined, bytes: Chunk | undefined): boolean {
  if (!slot || !bytes) return slot === undefined && bytes === undefined;
  return slot.size === bytes.size && slot.sha === bytes.sha;
}

function shortSha(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

function storedBytes(state: ArtifactState): number {
  return state.files.reduce((sum, file) => sum + file.end, 0);
}

/** Decoded bytes of the file parts of `artifacts`, without decoding them. */
function sumRaw(artifacts: readonly Artifact[]): number {
  let total = 0;
  for (const artifact of artifacts)
    for (const part of artifact.parts) if ('raw' in part) total += spilledBytesOf(part)?.size ?? base64Bytes(part.raw);
  return total;
}

function base64Bytes(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((text.length * 3) / 4) - padding);
}
