/**
 * The task as a tracker assembles it (snapshots and stream events) and the rule that says when
 * following it can stop. Shared by the tracking activity (stream, poll) and push mode's `getTask`.
 */
import {
  applyArtifactUpdate,
  artifactSetFromTask,
  artifactText,
  chunkPosition,
  emptyArtifactSet,
  type ArtifactSet,
  type Artifact,
  type StreamResponse,
  type Task,
  type TaskState,
  type TaskStatus,
} from '../a2a/index.js';
import type { StatusKey } from '../workflows/delegation-types.js';
import { isSameStatus, messageText, statusKeyOf, withoutHistory } from './task-view.js';

/** Where the task stands when the tracking round ends. */
export type TrackPhase =
  'running' | 'completed' | 'failed' | 'rejected' | 'canceled' | 'input-required' | 'auth-required';

export interface TrackOutcome {
  phase: TrackPhase;
  /** The task as last seen (no history). */
  task: Task;
  status: StatusKey;
  /** The text of the agent's status message (its question, or why it failed). */
  statusText: string;
  /** Artifacts with every chunk applied. */
  artifacts: Artifact[];
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
  taskId: string;
  state?: TaskState;
  events: number;
  artifacts: ArtifactProgress[];
}

/** Longest artifact text carried in heartbeat details (they are small by design). */
const MAX_PROGRESS_TEXT = 16_384;

/** The end of a tracking round, if `status` is one: terminal, or interrupted with a question not yet handled. */
export function decide(status: TaskStatus | undefined, handled: StatusKey | undefined): TrackPhase | undefined {
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

/** The task as the tracker has assembled it from snapshots and stream events. */
export class TaskView {
  task: Task;
  status: TaskStatus | undefined;
  artifacts: ArtifactSet = emptyArtifactSet();
  events = 0;

  constructor(taskId: string, resumed: TrackProgress | undefined) {
    this.task = { id: taskId, status: { state: resumed?.state ?? 'TASK_STATE_SUBMITTED' } } as Task;
    this.events = resumed?.events ?? 0;
  }

  apply(event: StreamResponse): void {
    this.events += 1;
    if ('task' in event) {
      this.snapshot(event.task);
    } else if ('statusUpdate' in event) {
      this.status = event.statusUpdate.status;
      this.task = { ...this.task, status: event.statusUpdate.status, contextId: event.statusUpdate.contextId };
    } else if ('artifactUpdate' in event) {
      this.artifacts = applyArtifactUpdate(
        this.artifacts,
        event.artifactUpdate,
        chunkPosition(this.artifacts, event.artifactUpdate),
      );
    }
  }

  /** A full task (GetTask, or a stream's first event) replaces everything assembled so far. */
  snapshot(task: Task): void {
    this.task = withoutHistory(task);
    this.status = task.status;
    this.artifacts = artifactSetFromTask(task);
  }

  fingerprint(): string {
    const parts = this.artifacts.artifacts.map((a) => `${a.artifactId}:${a.parts.length}`).join(',');
    return `${this.status?.state}|${this.status?.timestamp}|${parts}`;
  }

  progress(): TrackProgress {
    return {
      taskId: this.task.id,
      state: this.status?.state,
      events: this.events,
      artifacts: this.artifacts.artifacts.map((artifact) => ({
        artifactId: artifact.artifactId,
        name: artifact.name,
        parts: artifact.parts.length,
        lastChunk: this.artifacts.lastChunk[artifact.artifactId] ?? false,
        text: artifactText(artifact).slice(-MAX_PROGRESS_TEXT),
      })),
    };
  }

  outcome(phase: TrackPhase): TrackOutcome {
    const status = this.status ?? this.task.status;
    return {
      phase,
      task: { ...this.task, artifacts: this.artifacts.artifacts },
      status: statusKeyOf(status),
      statusText: messageText(status.message),
      artifacts: this.artifacts.artifacts,
    };
  }
}
