import { Context } from '@temporalio/activity';
import {
  applyArtifactUpdate,
  artifactSetFromTask,
  artifactText,
  chunkPosition,
  emptyArtifactSet,
  StreamIdleTimeoutError,
  UnsupportedOperationError,
  type A2AClient,
  type ArtifactSet,
  type Artifact,
  type StreamResponse,
  type Task,
  type TaskState,
  type TaskStatus,
} from '../a2a/index.js';
import type { AgentRef, StatusKey } from '../workflows/delegation-types.js';
import { clientFor, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { isSameStatus, messageText, statusKeyOf, withoutHistory } from './task-view.js';

export interface TrackTaskInput {
  agent: AgentRef;
  taskId: string;
  mode: 'stream' | 'poll';
  /** An interrupted status already answered: seeing it again is not a new question (see the design's traps). */
  handled?: StatusKey;
  /** Hand back with phase `running` after this long, so one activity never runs unbounded. */
  roundMs: number;
  pollInitialMs: number;
  pollMaxMs: number;
  /** Stream mode: with no event for this long, check the task with GetTask and subscribe again. @default 30_000 */
  idleMs?: number;
}

/** Where the task stands when the tracking round ends. */
export type TrackPhase = 'running' | 'completed' | 'failed' | 'rejected' | 'canceled' | 'input-required' | 'auth-required';

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

/**
 * Follows the task until it is terminal or asks a NEW question (or the round ends), by
 * SubscribeToTask (stream) or GetTask with capped exponential backoff (poll). Heartbeats what it
 * has seen; a new attempt after a crash resubscribes, and the first event (the task snapshot)
 * replaces what was assembled, so no artifact text is repeated.
 */
export async function trackTask(deps: ActivityDeps, input: TrackTaskInput): Promise<TrackOutcome> {
  return asActivity(input.agent.name, async () => {
    const context = Context.current();
    const view = new TaskView(input.taskId, context.info.heartbeatDetails as TrackProgress | undefined);
    const beat = () => context.heartbeat(view.progress());
    const keepAlive = setInterval(beat, Math.max(200, Math.min(1_000, (context.info.heartbeatTimeoutMs ?? 3_000) / 3)));
    try {
      const client = clientFor(deps, input.agent);
      const deadline = Date.now() + input.roundMs;
      return input.mode === 'stream'
        ? await followStream(client, input, view, beat, deadline)
        : await poll(client, input, view, beat, deadline);
    } finally {
      clearInterval(keepAlive);
    }
  });
}

async function followStream(client: A2AClient, input: TrackTaskInput, view: TaskView, beat: () => void, deadline: number): Promise<TrackOutcome> {
  const context = Context.current();
  let pause = input.pollInitialMs;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return view.outcome('running');
    const round = AbortSignal.any([context.cancellationSignal, AbortSignal.timeout(remaining)]);
    const before = view.events;
    try {
      for await (const event of client.subscribeToTask({ id: input.taskId }, { signal: round, idleTimeoutMs: input.idleMs ?? 30_000 })) {
        view.apply(event);
        beat();
        const phase = decide(view.status, input.handled);
        if (phase) return view.outcome(phase);
      }
    } catch (err) {
      const recoverable = err instanceof StreamIdleTimeoutError || err instanceof UnsupportedOperationError;
      if (round.aborted && !context.cancellationSignal.aborted) return view.outcome('running');
      if (!recoverable) throw err;
      // Idle (streams carry no keep-alives) or not subscribable (already terminal): read the truth below.
    }
    const task = await client.getTask({ id: input.taskId, historyLength: 0 }, { signal: context.cancellationSignal });
    view.snapshot(task);
    beat();
    const phase = decide(view.status, input.handled);
    if (phase) return view.outcome(phase);
    // Still running and the stream ended: subscribe again, pausing longer while nothing happens.
    pause = view.events > before + 1 ? input.pollInitialMs : Math.min(pause * 1.5, input.pollMaxMs);
    if (Date.now() + pause >= deadline) return view.outcome('running');
    await context.sleep(pause);
  }
}

async function poll(client: A2AClient, input: TrackTaskInput, view: TaskView, beat: () => void, deadline: number): Promise<TrackOutcome> {
  const context = Context.current();
  let pause = input.pollInitialMs;
  for (;;) {
    const before = view.fingerprint();
    view.snapshot(await client.getTask({ id: input.taskId, historyLength: 0 }, { signal: context.cancellationSignal }));
    beat();
    const phase = decide(view.status, input.handled);
    if (phase) return view.outcome(phase);
    pause = view.fingerprint() !== before ? input.pollInitialMs : Math.min(pause * 1.5, input.pollMaxMs);
    if (Date.now() + pause >= deadline) return view.outcome('running');
    await context.sleep(pause);
  }
}

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
class TaskView {
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
      this.artifacts = applyArtifactUpdate(this.artifacts, event.artifactUpdate, chunkPosition(this.artifacts, event.artifactUpdate));
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
