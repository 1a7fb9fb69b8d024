import { Context } from '@temporalio/activity';
import { type A2AClient, type Message, type StreamOptions, type StreamResponse } from '../a2a/index.js';
import {
  InvalidResponseError,
  StreamIdleTimeoutError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '../a2a/errors.js';
import type { AgentRef, AgentTarget, StatusKey } from '../contract/delegation-types.js';
import { clientFor, taskViewOptions, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { heartbeating } from './heartbeat.js';
import { withinPayloadLimit } from './payload-limit.js';
import { isTransient, Reachability, SILENCE_NOTICE_MS } from './reachability.js';
import { watchStream } from './stream-liveness.js';
import { READ_AS_IT_ARRIVES_BYTES, withTaskRead } from './task-read.js';
import { phaseOf, TaskView, type TrackOutcome, type TrackProgress } from './task-outcome.js';
import type { ExpectedTask } from './task-identity.js';
import { takeOverFromLastAttempt } from './sticky-takeover.js';

export { phaseOf } from './task-outcome.js';
export type { TrackOutcome, TrackProgress } from './task-outcome.js';

/** How one tracking activity follows the task. */
export interface RoundSettings {
  /** Hand back with phase `running` after this long, so one activity never runs unbounded. */
  roundMs: number;
  pollInitialMs: number;
  pollMaxMs: number;
  /** Fail with A2A_AGENT_UNREACHABLE once the agent has not answered at all for this long. @default 120_000 */
  unreachableMs?: number;
  /** The agent has not answered since then (epoch ms): the previous round ended in silence. */
  unreachableSince?: number;
  /** Bytes the agent made this delegation drop in earlier rounds (TrackOutcome.droppedBytes): the byte budget goes on counting. */
  droppedBytes?: number;
}

/** Stream mode: with no event for this long, check the task with GetTask and subscribe again. */
export const STREAM_IDLE_MS = 30_000;

export interface TrackTaskInput extends RoundSettings {
  agent: AgentRef;
  taskId: string;
  mode: 'stream' | 'poll';
  /** The delegation's context: a task or event of another context is refused (no cross-talk). */
  contextId?: string;
  /** An interrupted status already answered: seeing it again is not a new question (see the design's traps). */
  handled?: StatusKey;
}

/**
 * Follows the task until it is terminal or asks a NEW question (or the round ends), by
 * SubscribeToTask (stream) or GetTask with capped exponential backoff (poll). Heartbeats what it
 * has seen; a new attempt after a crash resubscribes, and the first event (the task snapshot)
 * replaces what was assembled, so no artifact text is repeated.
 */
export async function trackTask(deps: ActivityDeps, input: TrackTaskInput): Promise<TrackOutcome> {
  const takeover = takeOverFromLastAttempt();
  const { view, reach } = resumeFollowing(
    deps,
    input,
    input.contextId ? { contextId: input.contextId } : {},
    input.taskId,
  );
  return asActivity(
    input.agent.name,
    async () => {
      const heartbeats = heartbeating(() => progressOf(view, reach));
      try {
        const client = await clientFor(deps, input.agent);
        const follower = followerOf(deps, client, input, { view, reach }, heartbeats.beat);
        const end = input.mode === 'stream' ? await followStream(follower) : await pollTask(follower);
        // A subscription or a read never answers with a direct reply: that only ends a send.
        if (end.kind === 'message')
          throw new InvalidResponseError('The agent answered a subscription with a message.', {});
        return withinPayloadLimit(
          withReachability(end.outcome, reach),
          input.agent.name,
          `task ${input.taskId}`,
          deps.offloadsPayloads,
        );
      } finally {
        heartbeats.stop();
        await takeover;
      }
    },
    () => progressOf(view, reach),
  );
}

/**
 * What a following activity (a tracking round, a stream turn) starts from: the task as an earlier
 * attempt of it saw it (heartbeat details), how long the agent has been silent, and how much of
 * the delegation's byte budget it has used. `expect`: the task and context that are the delegation's;
 * `taskId`: the task to follow (else the one the heartbeat names, else the one the agent names now).
 */
export function resumeFollowing(
  deps: ActivityDeps,
  input: Pick<RoundSettings, 'unreachableMs' | 'unreachableSince' | 'droppedBytes'> & { agent: AgentTarget },
  expect: ExpectedTask = {},
  taskId?: string,
): { view: TaskView; reach: Reachability } {
  const { heartbeatDetails } = Context.current().info;
  const resumed = heartbeatDetails as TrackProgress | undefined;
  const options = taskViewOptions(deps, input.agent, {
    expect,
    droppedBytes: resumed?.droppedBytes ?? input.droppedBytes ?? 0,
    droppedStoredBytes: resumed?.droppedStoredBytes ?? 0,
  });
  const view = new TaskView(taskId ?? resumed?.taskId ?? '', resumed, options);
  const since = resumed?.unreachableSince ?? input.unreachableSince;
  return { view, reach: new Reachability(input.agent.name, input.unreachableMs ?? 120_000, since) };
}

/**
 * A round's outcome, with the silence it ended in (if it did: failures, or a request overdue,
 * counted from when it left), so the next round goes on counting and the workflow can show it.
 */
export function withReachability(outcome: TrackOutcome, reach: Reachability): TrackOutcome {
  const silence = reach.silence();
  if (!silence) return outcome;
  const { since, lastError, attempts, givesUpAt } = silence;
  return { ...outcome, unreachableSince: since, silence: { lastError, attempts, givesUpAt } };
}

/** The heartbeat details: what was seen, and since when the agent has not answered (and why, in one line). */
export function progressOf(view: TaskView, reach: Reachability): TrackProgress {
  const silence = reach.silence();
  return {
    ...view.progress(),
    ...(silence
      ? {
          unreachableSince: silence.since,
          lastError: silence.lastError,
          attempts: silence.attempts,
          givesUpAt: silence.givesUpAt,
          ...(silence.nextAttemptAt !== undefined ? { nextAttemptAt: silence.nextAttemptAt } : {}),
        }
      : {}),
  };
}

/** What following a task works with. */
export interface Follower {
  client: A2AClient;
  /** The worker's per-request timeout (A2A_REQUEST_TIMEOUT_MS); a request waits at most what is left of the unreachable budget. */
  requestTimeoutMs: number;
  input: Pick<RoundSettings, 'pollInitialMs' | 'pollMaxMs'> & { handled?: StatusKey };
  view: TaskView;
  reach: Reachability;
  beat: () => void;
  /** Epoch ms when the round ends. */
  deadline: number;
  /** Aborted when the round ends early to tell the workflow that the agent went silent, or answers again. */
  early: AbortSignal;
  /** Streams and GetTask read an answer too large to hold as it arrives when its size is file bytes going to the store (a resumed snapshot, a task's files). */
  fileBytes?: { maxBytes: number; maxTextBytes: number; fromBytes: number };
}

/**
 * A round ends early at most this long after it started (or at once, if later), when the agent
 * went silent or answered again: the workflow learns it from the round's outcome (its UI's
 * current details show the problem), at two rounds per outage, and an agent that flaps costs at
 * most one round per this much time.
 */
export const EARLY_END_AFTER_MS = 10_000;

/**
 * A round of following `view`'s task, from now until `input.roundMs` has passed, or until the
 * agent's silence changes (it went silent, or answered after silence; see {@link EARLY_END_AFTER_MS}).
 */
export function followerOf(
  deps: Pick<ActivityDeps, 'requestTimeoutMs' | 'artifacts'>,
  client: A2AClient,
  input: Follower['input'] & Pick<RoundSettings, 'roundMs'>,
  { view, reach }: { view: TaskView; reach: Reachability },
  beat: () => void,
): Follower {
  const started = Date.now();
  const deadline = started + input.roundMs;
  const startedSilent = reach.since !== undefined;
  const early = new AbortController();
  reach.onSilenceChange(() => {
    const endIfChanged = () => {
      // Not before the task is known: a send's round must name the task it leaves the workflow.
      if (reach.silent !== startedSilent && view.task.id) early.abort();
    };
    setTimeout(endIfChanged, Math.max(0, started + EARLY_END_AFTER_MS - Date.now())).unref();
  });
  const fileBytes = deps.artifacts
    ? {
        fileBytes: {
          maxBytes: deps.artifacts.maxStoredBytes,
          maxTextBytes: view.budget.max,
          fromBytes: READ_AS_IT_ARRIVES_BYTES,
        },
      }
    : {};
  return {
    client,
    requestTimeoutMs: deps.requestTimeoutMs,
    input,
    view,
    reach,
    beat,
    deadline,
    early: early.signal,
    ...fileBytes,
  };
}

/** Where following ended: the task decided (or the round ended, `running`), or the agent replied with a message. */
export type FollowEnd = TaskEnd | { kind: 'message'; message: Message };

/** Following ended with the task: decided, or `running` at the round's end. */
export type TaskEnd = { kind: 'task'; outcome: TrackOutcome };

/**
 * Follows the task's stream until it decides (see {@link phaseOf}) or the round ends: the
 * `opening` stream first when given (a turn's SendStreamingMessage), then SubscribeToTask,
 * re-reading the task with GetTask whenever a stream ends or stays idle. Transient failures are
 * retried here, counted by `reach`; a message before any task event is the agent's direct reply.
 *
 * @throws the opening stream's transient failure when it came before the task was known (the
 * caller must look for the task before sending again).
 */
export async function followStream(
  f: Follower,
  opening?: (round: AbortSignal, options: Pick<StreamOptions, 'fileBytes'>) => AsyncIterable<StreamResponse>,
): Promise<FollowEnd> {
  const { client, input, view, reach, beat } = f;
  const context = Context.current();
  const probeMs = SILENCE_NOTICE_MS;
  let pause = input.pollInitialMs;
  for (;;) {
    const remaining = f.deadline - Date.now();
    if (remaining <= 0 || f.early.aborted) return await running(view);
    const ended = new AbortController();
    const round = AbortSignal.any([context.cancellationSignal, AbortSignal.timeout(remaining), f.early]);
    const stream = AbortSignal.any([round, ended.signal]);
    const before = view.events;
    // Until its first event the stream is a request waiting for its answer; after that, silence is the agent's to keep.
    let askedAt: number | undefined = reach.asking(opening ? 'SendStreamingMessage' : 'SubscribeToTask');
    const watch = watchStream({
      client,
      view,
      reach,
      probeMs,
      maxIntervalMs: STREAM_IDLE_MS,
      signal: round,
      endStream: () => ended.abort(),
    });
    // The bytes of an event too large to hold are the stream at work, not silence.
    const streamOptions: Pick<StreamOptions, 'fileBytes'> = f.fileBytes
      ? { fileBytes: { ...f.fileBytes, onProgress: () => watch.heard() } }
      : {};
    try {
      const events =
        opening?.(stream, streamOptions) ??
        client.subscribeToTask(
          { id: view.task.id },
          {
            signal: stream,
            idleTimeoutMs: STREAM_IDLE_MS,
            connectTimeoutMs: reach.timeoutFor(f.requestTimeoutMs),
            ...streamOptions,
          },
        );
      opening = undefined;
      let first = true;
      for await (const event of events) {
        reach.answered();
        watch.heard();
        askedAt = undefined;
        if ('message' in event && !view.task.id) return { kind: 'message', message: event.message };
        await view.take(event, first); // a stream's first event is the task as it stands: a read of ours
        first = false;
        beat();
        const phase = phaseOf(view.status, input.handled);
        if (phase) return { kind: 'task', outcome: await view.result(phase) };
      }
    } catch (err) {
      if (round.aborted && !context.cancellationSignal.aborted) return await running(view);
      if (!view.task.id) throw err;
      // The task moved on while its stream stayed silent (or the agent stopped answering): read it below.
      if (ended.signal.aborted) pause = 0;
      else if (isTransient(err)) await reach.failed(err, askedAt);
      // Idle (streams carry no keep-alives), or not subscribable: already terminal, or (a2a-go 0.3) a task
      // parked in an interrupted state answers "task not found". Read the truth below: GetTask fails if it is gone.
      else if (!isUnsubscribable(err)) throw err;
    } finally {
      watch.stop();
    }
    // A send's stream that ended before its first event leaves no task to read: the caller looks for it.
    if (!view.task.id) throw new StreamEndedEarly();
    const read = await readTask(f);
    if (read) return read;
    // Still running and the stream ended: subscribe again, pausing longer while nothing happens.
    pause = view.events > before + 1 ? input.pollInitialMs : Math.min(pause * 1.5, input.pollMaxMs);
    if (Date.now() + pause >= f.deadline || f.early.aborted) return await running(view);
    await context.sleep(pause);
  }
}

function isUnsubscribable(err: unknown): boolean {
  return (
    err instanceof StreamIdleTimeoutError ||
    err instanceof UnsupportedOperationError ||
    err instanceof TaskNotFoundError
  );
}

/** The agent closed a send's stream before it named the task. */
export class StreamEndedEarly extends Error {
  override readonly name = 'StreamEndedEarly';
  constructor() {
    super('the agent closed the stream before it sent the task');
  }
}

/**
 * Reads the task with GetTask, with capped exponential backoff while nothing changes, until it
 * decides (see {@link phaseOf}) or the round ends. Transient failures are retried here, counted
 * by `reach`. The first read leaves at once.
 */
export async function pollTask(f: Follower): Promise<TaskEnd> {
  const { input, view } = f;
  let pause = input.pollInitialMs;
  for (;;) {
    const before = view.fingerprint();
    const read = await readTask(f);
    if (read) return read;
    pause = view.fingerprint() !== before ? input.pollInitialMs : Math.min(pause * 1.5, input.pollMaxMs);
    if (Date.now() + pause >= f.deadline || f.early.aborted) return await running(f.view);
    await Context.current().sleep(pause);
  }
}

/** One GetTask (a transient failure counts against reachability and reads nothing): the end when the task decided. */
async function readTask(f: Follower): Promise<TaskEnd | undefined> {
  const { client, input, view, reach, beat } = f;
  const timeoutMs = reach.timeoutFor(f.requestTimeoutMs);
  const askedAt = reach.asking('GetTask');
  const cancelled = Context.current().cancellationSignal;
  try {
    await withTaskRead(
      client,
      { id: view.task.id, historyLength: 0 },
      { signal: AbortSignal.any([cancelled, f.early]), timeoutMs },
      f.fileBytes,
      (task) => view.read(task),
    );
  } catch (err) {
    // The round ends early (the request, overdue, stays counted as silence from when it left).
    if (f.early.aborted && !cancelled.aborted) return undefined;
    if (!isTransient(err)) throw err;
    await reach.failed(err, askedAt);
    return undefined;
  }
  reach.answered();
  beat();
  const phase = phaseOf(view.status, input.handled);
  return phase ? { kind: 'task', outcome: await view.result(phase) } : undefined;
}

async function running(view: TaskView): Promise<TaskEnd> {
  return { kind: 'task', outcome: await view.result('running') };
}
