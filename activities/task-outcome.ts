/**
 * The task as a tracker assembles it (snapshots and stream events) and the rule that says when
 * following it can stop. Shared by the tracking activity (stream, poll) and push mode's `getTask`.
 */
import {
  ArtifactAssembler,
  type ArtifactLimits,
  type ArtifactSet,
  type Artifact,
  type StreamResponse,
  type Task,
  type TaskState,
  type TaskStatus,
} from '../a2a/index.js';
import { InvalidResponseError } from '../a2a/errors.js';
import type { StatusKey } from '../contract/delegation-types.js';
import { isAnsweredStatus, statusKeyOf } from '../contract/answered-status.js';
import type { TrackPhase } from '../contract/track-phase.js';
import { type ArtifactSpool, withoutReservedMetadata } from './artifact-spool.js';
import { ByteBudget, partsBytes } from './byte-budget.js';
import { checkTaskIdentity, quoteId, type ExpectedTask } from './task-identity.js';
import { messageText } from './task-view.js';

export interface TrackOutcome {
  phase: TrackPhase;
  /** The task as last seen, without its history and without its artifacts (those are `artifacts`, assembled). */
  task: Task;
  status: StatusKey;
  /** The text of the agent's status message (its question, or why it failed). */
  statusText: string;
  /** Artifacts with every chunk applied. */
  artifacts: Artifact[];
  /** Set when the round ended while the agent did not answer: since when (epoch ms), so the next round goes on counting. */
  unreachableSince?: number;
  /** With `unreachableSince`: the silence as the round ended in it (the last error, when the delegation gives up), for the UI. */
  silence?: { lastError: string; attempts: number; givesUpAt: number };
  /** Bytes the agent made this delegation drop so far (see ByteBudget): pass them to the next round (RoundSettings.droppedBytes). */
  droppedBytes?: number;
  /** The same for file bytes written to the blob store. */
  droppedStoredBytes?: number;
}

/** A file of an artifact as the blob store has it so far. */
export interface FileProgress {
  name: string;
  mediaType: string;
  size: number;
}

/** One artifact as the tracker has it so far (heartbeat details; `watch` prints `text` as it grows). */
export interface ArtifactProgress {
  artifactId: string;
  name?: string;
  parts: number;
  lastChunk: boolean;
  text: string;
  /** Its files going to the blob store (name, type, bytes so far): what `watch` shows instead of bytes. */
  files?: FileProgress[];
}

/** The tracking activity's heartbeat details: what it has seen, so a new attempt and `watch` can use it. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface TrackProgress {
  /** Empty until the agent names the task (a stream turn's first event). */
  taskId: string;
  /** The task's state as last seen. */
  state?: TaskState;
  /** Events read so far in this round. */
  events: number;
  /** The artifacts so far: names, sizes and the tail of their text. */
  artifacts: ArtifactProgress[];
  /** Since when (epoch ms) the agent has not answered, while it does not. */
  unreachableSince?: number;
  /** Bytes the agent made this delegation drop so far (see ByteBudget): a new attempt goes on counting. */
  droppedBytes?: number;
  /** The same for file bytes written to the blob store (the spool's budget). */
  droppedStoredBytes?: number;
  /** Why, in one line (the last failure, or the request still waiting), while it does not answer. */
  lastError?: string;
  /** While it does not answer: the requests left unanswered. */
  attempts?: number;
  /** While it does not answer: when the next request leaves (epoch ms). */
  nextAttemptAt?: number;
  /** While it does not answer: when the delegation gives up (epoch ms). */
  givesUpAt?: number;
}

/** Heartbeat details are small by design: the last 16 KB of each artifact's text, 32 artifacts, 64 KB of text in all. */
const MAX_PROGRESS_TEXT = 16_384;
const MAX_PROGRESS_ARTIFACTS = 32;
const MAX_PROGRESS_TOTAL = 65_536;

/** The end of a tracking round, if `status` is one: terminal, or interrupted with a question not yet handled. */
export function phaseOf(status: TaskStatus | undefined, handled: StatusKey | undefined): TrackPhase | undefined {
  switch (status?.state) {
    case 'TASK_STATE_COMPLETED':
      return 'completed';
    case 'TASK_STATE_FAILED':
      return 'failed';
    case 'TASK_STATE_REJECTED':
      return 'rejected';
    case 'TASK_STATE_CANCELED':
      return 'canceled';
    case 'TASK_STATE_INPUT_REQUIRED':
      return isAnsweredStatus(statusKeyOf(status), handled) ? undefined : 'input-required';
    case 'TASK_STATE_AUTH_REQUIRED':
      return isAnsweredStatus(statusKeyOf(status), handled) ? undefined : 'auth-required';
    default:
      return undefined;
  }
}

/** What a {@link TaskView} checks and counts. */
export interface TaskViewOptions {
  limits?: Partial<ArtifactLimits>;
  /** Bytes of content this delegation may hold and drop; default: a fresh budget of the default size. */
  budget?: ByteBudget;
  /** What the delegation expects of the task: checked on every snapshot and event. */
  expect?: ExpectedTask;
  /** Told of the task id (and context) once they are known or change: another delegation's task is refused there. */
  claim?: (taskId: string, contextId: string | undefined) => void;
  /** File parts to the blob store as they arrive (see artifact-spool.ts); unset: they stay inline. */
  spool?: ArtifactSpool;
}

/**
 * The task as the tracker has assembled it from snapshots and stream events. A stream may start
 * with the Task, a status update or an artifact update (SDKs differ: the Python SDK's answer turn
 * starts with a status update), so the task and context ids come from whichever event comes
 * first, and every later event must name the same task, in the delegation's context (see
 * task-identity.ts). Every byte of content is counted against the delegation's {@link ByteBudget}
 * before it is assembled.
 */
export class TaskView {
  task: Task;
  status: TaskStatus | undefined;
  events = 0;
  readonly budget: ByteBudget;
  /** Linear in the number of events: each chunk costs its own parts, whatever came before. */
  private readonly assembler: ArtifactAssembler;
  private readonly expected: ExpectedTask;
  private readonly claim: TaskViewOptions['claim'];
  private readonly spool: ArtifactSpool | undefined;
  /** Bytes held per artifact, and by the current status message. */
  private readonly artifactBytes = new Map<string, number>();
  private statusBytes = 0;
  private claimed = '';

  constructor(taskId: string, resumed: TrackProgress | undefined, options: TaskViewOptions = {}) {
    this.assembler = new ArtifactAssembler(options.limits);
    this.budget = options.budget ?? new ByteBudget();
    this.expected = { ...options.expect, ...(taskId ? { taskId } : {}) };
    this.claim = options.claim;
    this.spool = options.spool;
    this.task = { id: taskId, status: { state: resumed?.state ?? 'TASK_STATE_SUBMITTED' } } as Task;
    this.events = resumed?.events ?? 0;
  }

  /**
   * `opening`: the first event of a stream we opened (its task snapshot is a read of ours, like
   * GetTask); a snapshot later in a stream is the agent's doing, and what it replaces is dropped.
   *
   * @throws InvalidResponseError when the event names no task, another task than the one
   * followed, or another context; ResponseTooLargeError past the byte budget.
   */
  apply(event: StreamResponse, opening = false): void {
    this.applyOwn(this.spool ? event : withoutOurMetadata(event), opening);
  }

  /**
   * {@link apply} for a view with a spool: file parts go to the blob store first (after the
   * event's ids were checked), what is assembled holds placeholders. Without a spool, `apply`.
   */
  async take(event: StreamResponse, opening = false): Promise<void> {
    if (!this.spool) return this.apply(event, opening);
    if ('task' in event) {
      this.adopt(event.task.id, event.task.contextId);
      event = { task: await this.spool.task(event.task, opening) };
    } else if ('artifactUpdate' in event) {
      const update = event.artifactUpdate;
      this.adopt(update.taskId, update.contextId);
      event = { artifactUpdate: await this.spool.update(update, this.assembler.position(update)) };
    }
    this.applyOwn(event, opening);
  }

  /** {@link snapshot} through the spool (a read of ours). */
  async read(task: Task): Promise<void> {
    if (!this.spool) return this.snapshot(task);
    this.adopt(task.id, task.contextId);
    this.snapshotOwn(await this.spool.task(task, true), true);
  }

  /**
   * {@link outcome} with every stored file sealed: its reference (a decided task), or its name and
   * size so far (`running`: the spool's sessions are dropped, the next round reads afresh).
   */
  async result(phase: TrackPhase): Promise<TrackOutcome> {
    const outcome = this.outcome(phase);
    if (!this.spool) return outcome;
    const artifacts = await this.spool.seal(outcome.artifacts, phase !== 'running');
    return { ...outcome, artifacts, ...this.droppedStored() };
  }

  private applyOwn(event: StreamResponse, opening: boolean): void {
    this.events += 1;
    if ('task' in event) {
      this.snapshotOwn(event.task, opening);
    } else if ('statusUpdate' in event) {
      const update = event.statusUpdate;
      this.adopt(update.taskId, update.contextId);
      this.countStatus(update.status);
      this.status = update.status;
      this.task = { ...this.task, status: update.status };
    } else if ('artifactUpdate' in event) {
      const update = event.artifactUpdate;
      this.adopt(update.taskId, update.contextId);
      const id = update.artifact.artifactId;
      const bytes = partsBytes(update.artifact.parts);
      const before = this.artifactBytes.get(id) ?? 0;
      this.budget.replace(update.append ? 0 : before, bytes);
      this.assembler.apply(update, this.assembler.position(update));
      this.artifactBytes.set(id, update.append ? before + bytes : bytes);
    }
  }

  /**
   * A full task replaces everything assembled so far. `ours`: we read it (GetTask, a stream's first
   * event), so what it holds is what the delegation holds; otherwise what it replaces is dropped.
   */
  snapshot(task: Task, ours = true): void {
    this.snapshotOwn(this.spool ? task : withoutOurTaskMetadata(task), ours);
  }

  private snapshotOwn(task: Task, ours: boolean): void {
    this.adopt(task.id, task.contextId);
    const sizes = new Map<string, number>();
    for (const artifact of task.artifacts ?? [])
      sizes.set(artifact.artifactId, (sizes.get(artifact.artifactId) ?? 0) + partsBytes(artifact.parts));
    const status = partsBytes(task.status.message?.parts);
    let total = status;
    for (const bytes of sizes.values()) total += bytes;
    if (ours) this.budget.rebase(total);
    else this.budget.replace(this.budget.heldBytes, total);
    const { history: _history, artifacts: _artifacts, ...rest } = task;
    this.task = rest;
    this.status = task.status;
    this.assembler.snapshot(task);
    this.artifactBytes.clear();
    for (const [id, bytes] of sizes) this.artifactBytes.set(id, bytes);
    this.statusBytes = status;
  }

  /** A new status supersedes the old one: its message is held, the old one dropped. */
  private countStatus(status: TaskStatus): void {
    const bytes = partsBytes(status.message?.parts);
    this.budget.replace(this.statusBytes, bytes);
    this.statusBytes = bytes;
  }

  private adopt(taskId: string, contextId: string | undefined): void {
    if (!taskId) {
      throw new InvalidResponseError('The agent sent a task event without a task id, which A2A requires.', {
        path: 'taskId',
      });
    }
    if (this.task.id && taskId !== this.task.id) {
      throw new InvalidResponseError(
        `The agent sent an event for task ${quoteId(taskId)} while following task ${quoteId(this.task.id)}; A2A keeps one task per stream.`,
        { path: 'taskId' },
      );
    }
    // Once known, the context is the delegation's: it must not change either.
    checkTaskIdentity(taskId, contextId, {
      ...this.expected,
      contextId: this.expected.contextId ?? this.task.contextId,
    });
    // Claimed before it is adopted: another delegation's task never becomes this view's (nor its heartbeat's).
    const context = contextId || this.task.contextId;
    const key = `${taskId}\n${context ?? ''}`;
    if (key !== this.claimed) {
      this.claim?.(taskId, context);
      this.claimed = key;
    }
    this.task = { ...this.task, id: taskId, ...(contextId ? { contextId } : {}) };
  }

  /** The artifacts assembled so far (a live view: read, do not change). */
  get artifacts(): ArtifactSet {
    return this.assembler.set;
  }

  fingerprint(): string {
    const parts = this.artifacts.artifacts.map((a) => `${a.artifactId}:${a.parts.length}`).join(',');
    return `${this.status?.state}|${this.status?.timestamp}|${parts}`;
  }

  /**
   * What the heartbeat carries: bounded, however many artifacts and chunks the agent sends, and
   * built from the end of each artifact (a tail window), never by joining whole artifacts.
   */
  progress(): TrackProgress {
    let budget = MAX_PROGRESS_TOTAL;
    const shown = this.artifacts.artifacts.slice(-MAX_PROGRESS_ARTIFACTS).map((artifact) => {
      const text = tailText(artifact, Math.min(MAX_PROGRESS_TEXT, budget));
      budget -= text.length;
      return {
        artifactId: artifact.artifactId.slice(0, 256),
        name: artifact.name?.slice(0, 256),
        parts: artifact.parts.length,
        lastChunk: this.artifacts.lastChunk[artifact.artifactId] ?? false,
        text,
        ...this.filesProgress(artifact.artifactId),
      };
    });
    const dropped = this.budget.droppedBytes;
    return {
      taskId: this.task.id,
      state: this.status?.state,
      events: this.events,
      artifacts: shown,
      ...(dropped ? { droppedBytes: dropped } : {}),
      ...this.droppedStored(),
    };
  }

  private filesProgress(artifactId: string): { files?: FileProgress[] } {
    const files = this.spool?.filesOf(artifactId).slice(0, MAX_PROGRESS_ARTIFACTS);
    return files?.length
      ? { files: files.map((f) => ({ ...f, name: f.name.slice(0, 256), mediaType: f.mediaType.slice(0, 256) })) }
      : {};
  }

  private droppedStored(): { droppedStoredBytes?: number } {
    const dropped = this.spool?.budget.droppedBytes;
    return dropped ? { droppedStoredBytes: dropped } : {};
  }

  outcome(phase: TrackPhase): TrackOutcome {
    const status = this.status ?? this.task.status;
    const dropped = this.budget.droppedBytes;
    return {
      phase,
      task: this.task,
      status: statusKeyOf(status),
      statusText: messageText(status.message),
      artifacts: this.artifacts.artifacts,
      ...(dropped ? { droppedBytes: dropped } : {}),
    };
  }
}

/** The event without the agent's metadata under our reserved keys. */
function withoutOurMetadata(event: StreamResponse): StreamResponse {
  if ('task' in event) return { ...event, task: withoutOurTaskMetadata(event.task) };
  if ('artifactUpdate' in event) {
    return {
      ...event,
      artifactUpdate: { ...event.artifactUpdate, artifact: withoutReservedMetadata(event.artifactUpdate.artifact) },
    };
  }
  return event;
}

function withoutOurTaskMetadata(task: Task): Task {
  return task.artifacts ? { ...task, artifacts: task.artifacts.map(withoutReservedMetadata) } : task;
}

/** The last `max` characters of the artifact's text parts, read from its end. */
export function tailText(artifact: Artifact, max: number): string {
  if (max <= 0) return '';
  const pieces: string[] = [];
  let length = 0;
  for (let i = artifact.parts.length - 1; i >= 0 && length < max; i--) {
    const part = artifact.parts[i]!;
    if (!('text' in part)) continue;
    const text = part.text.length > max - length ? part.text.slice(part.text.length - (max - length)) : part.text;
    pieces.push(text);
    length += text.length;
  }
  return pieces.reverse().join('');
}
