/**
 * The task as a tracker assembles it (snapshots and stream events) and the rule that says when
 * following it can stop. Shared by the tracking activity (stream, poll) and push mode's `getTask`.
 */
import {
  ArtifactAssembler,
  artifactText,
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
import { isSameStatus, messageText, statusKeyOf } from './task-view.js';

/** Where the task stands when the tracking round ends. */
export type TrackPhase =
  'running' | 'completed' | 'failed' | 'rejected' | 'canceled' | 'input-required' | 'auth-required';

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
}

/** One artifact as the tracker has it so far (heartbeat details; `watch` prints `text` as it grows). */
export interface ArtifactProgress {
  artifactId: string;
  name?: string;
  parts: number;
  lastChunk: boolean;
  text: string;
}

/** The tracking activity's heartbeat details: what it has seen, so a new attempt and `watch` can use it. */
export interface TrackProgress {
  /** Empty until the agent names the task (a stream turn's first event). */
  taskId: string;
  state?: TaskState;
  events: number;
  artifacts: ArtifactProgress[];
  /** Since when (epoch ms) the agent has not answered, while it does not. */
  unreachableSince?: number;
  /** Why, in one line (the last failure, or the request still waiting), while it does not answer. */
  lastError?: string;
  /** While it does not answer: requests left unanswered, when the next leaves and when the delegation gives up (epoch ms). */
  attempts?: number;
  nextAttemptAt?: number;
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
      return isSameStatus(status, handled) ? undefined : 'input-required';
    case 'TASK_STATE_AUTH_REQUIRED':
      return isSameStatus(status, handled) ? undefined : 'auth-required';
    default:
      return undefined;
  }
}

/**
 * The task as the tracker has assembled it from snapshots and stream events. A stream may start
 * with the Task, a status update or an artifact update (SDKs differ: the Python SDK's answer turn
 * starts with a status update), so the task and context ids come from whichever event comes
 * first, and every later event must name the same task.
 */
export class TaskView {
  task: Task;
  status: TaskStatus | undefined;
  events = 0;
  /** Linear in the number of events: each chunk costs its own parts, whatever came before. */
  private readonly assembler: ArtifactAssembler;

  constructor(taskId: string, resumed: TrackProgress | undefined, limits?: Partial<ArtifactLimits>) {
    this.assembler = new ArtifactAssembler(limits);
    this.task = { id: taskId, status: { state: resumed?.state ?? 'TASK_STATE_SUBMITTED' } } as Task;
    this.events = resumed?.events ?? 0;
  }

  /** @throws InvalidResponseError when the event names no task, or another task than the one followed. */
  apply(event: StreamResponse): void {
    this.events += 1;
    if ('task' in event) {
      this.snapshot(event.task);
    } else if ('statusUpdate' in event) {
      const update = event.statusUpdate;
      this.adopt(update.taskId, update.contextId);
      this.status = update.status;
      this.task = { ...this.task, status: update.status };
    } else if ('artifactUpdate' in event) {
      const update = event.artifactUpdate;
      this.adopt(update.taskId, update.contextId);
      this.assembler.apply(update, this.assembler.position(update));
    }
  }

  /** A full task (GetTask, or a stream's first event) replaces everything assembled so far. */
  snapshot(task: Task): void {
    this.adopt(task.id, task.contextId);
    const { history: _history, artifacts: _artifacts, ...rest } = task;
    this.task = rest;
    this.status = task.status;
    this.assembler.snapshot(task);
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

  /** What the heartbeat carries: bounded, however many artifacts and chunks the agent sends. */
  progress(): TrackProgress {
    let budget = MAX_PROGRESS_TOTAL;
    const shown = this.artifacts.artifacts.slice(-MAX_PROGRESS_ARTIFACTS).map((artifact) => {
      const text = artifactText(artifact).slice(-Math.min(MAX_PROGRESS_TEXT, budget));
      budget -= text.length;
      return {
        artifactId: artifact.artifactId.slice(0, 256),
        name: artifact.name?.slice(0, 256),
        parts: artifact.parts.length,
        lastChunk: this.artifacts.lastChunk[artifact.artifactId] ?? false,
        text,
      };
    });
    return { taskId: this.task.id, state: this.status?.state, events: this.events, artifacts: shown };
  }

  outcome(phase: TrackPhase): TrackOutcome {
    const status = this.status ?? this.task.status;
    return {
      phase,
      task: this.task,
      status: statusKeyOf(status),
      statusText: messageText(status.message),
      artifacts: this.artifacts.artifacts,
    };
  }
}

/** An id for a message: at most 64 characters, quoted. */
function quoteId(id: string): string {
  return JSON.stringify(id.length > 64 ? `${id.slice(0, 63)}…` : id);
}
